import Testing

@testable import headscan

@Suite("Text tables")
struct TextTableTests {
    @Test func columnsAlignUnderTheirTitles() {
        var table = TextTable([.left("", 8), .right("3D scan", 9), .right("truth", 7)])
        table.add(["CVAI", "7.14", "7.00"])
        table.add(["CHOA", "2", "2"])
        #expect(
            table.lines == [
                "          3D scan  truth",
                "CVAI         7.14   7.00",
                "CHOA            2      2",
            ])
    }

    @Test func aWideCellPushesItsLineOnAndTheLastColumnIsNotPadded() {
        var table = TextTable([.left("date", 6), .left("session", gap: 2)], indent: "  ")
        table.add(["2026-01-15", "a"])
        table.add(["today"])
        #expect(table.lines == ["  date    session", "  2026-01-15  a", "  today"])
    }
}
