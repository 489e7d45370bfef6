/// A table of fixed-width columns for the tool's text output: a header line, then one line a
/// row. Every column takes its title's width at least; a cell wider than its column pushes the
/// rest of its line on rather than being cut. The last column is not padded, so no line ends
/// in spaces.
struct TextTable {
    enum Alignment { case left, right }

    struct Column {
        var title: String
        var width: Int
        var alignment: Alignment
        /// Spaces before the column.
        var gap: Int

        static func left(_ title: String, _ width: Int = 0, gap: Int = 0) -> Column {
            Column(title: title, width: width, alignment: .left, gap: gap)
        }

        static func right(_ title: String, _ width: Int = 0, gap: Int = 0) -> Column {
            Column(title: title, width: width, alignment: .right, gap: gap)
        }
    }

    let columns: [Column]
    private(set) var rows: [[String]] = []
    /// Put before every line.
    var indent = ""

    init(_ columns: [Column], indent: String = "") {
        self.columns = columns
        self.indent = indent
    }

    /// Adds a row; missing cells are blank, extra ones are dropped.
    mutating func add(_ cells: [String]) {
        rows.append(cells)
    }

    /// The header line and the rows.
    var lines: [String] {
        [line(columns.map(\.title))] + rows.map(line)
    }

    private func line(_ cells: [String]) -> String {
        var text = indent
        for (index, column) in columns.enumerated() {
            let cell = index < cells.count ? cells[index] : ""
            let width = max(column.width, column.title.count)
            let padding = String(repeating: " ", count: max(0, width - cell.count))
            text += String(repeating: " ", count: column.gap)
            switch column.alignment {
            case .right: text += padding + cell
            case .left: text += index == columns.count - 1 ? cell : cell + padding
            }
        }
        return text.hasSuffix(" ") ? String(text.reversed().drop(while: { $0 == " " }).reversed()) : text
    }
}
