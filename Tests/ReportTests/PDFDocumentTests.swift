import ReportKit
import Testing

@testable import Report

@Suite("PDF writer")
struct PDFDocumentTests {
    private func document() -> [UInt8] {
        var canvas = PDFCanvas()
        canvas.text("Cranial (vault) \\ index", x: 50, y: 60, size: 12)
        canvas.line(SIMD2(50, 70), SIMD2(200, 70), Stroke(.black, width: 1, dash: [2, 1]))
        canvas.rectangle(x: 50, y: 80, width: 40, height: 20, stroke: Stroke(.black, width: 0.5), fill: RGBColor(hex: 0xEEF4FB))
        var pdf = PDFDocument(title: "Test")
        pdf.add(canvas)
        pdf.add(PDFCanvas())
        return pdf.encoded()
    }

    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes.map { $0 < 128 ? $0 : 63 }, as: UTF8.self) }

    @Test("every cross-reference entry points at its object, and startxref at the table")
    func crossReference() throws {
        let bytes = document()
        let file = text(bytes)
        let startxref = try #require(file.range(of: "startxref\n", options: .backwards))
        let offsetLine = file[startxref.upperBound...].prefix { $0 != "\n" }
        let tableOffset = try #require(Int(offsetLine))
        #expect(text(Array(bytes[tableOffset..<tableOffset + 5])) == "xref\n")
        let table = file[file.index(file.startIndex, offsetBy: tableOffset)...].split(separator: "\n")
        let count = try #require(Int(table[1].split(separator: " ")[1]))
        #expect(count == 10)  // free entry; catalog, pages, two fonts, info; two pages of page and content
        for id in 1..<count {
            let entry = table[2 + id]
            #expect(entry.count == 19 && entry.hasSuffix(" n "), "entry \(id): \(entry)")
            let offset = try #require(Int(entry.prefix(10)))
            #expect(text(Array(bytes[offset..<offset + "\(id) 0 obj".count])) == "\(id) 0 obj")
        }
        #expect(file.hasPrefix("%PDF-1.4\n"))
        #expect(file.hasSuffix("%%EOF\n"))
        #expect(file.contains("/Count 2"))
    }

    @Test("stream lengths match the bytes between stream and endstream")
    func streamLengths() throws {
        let file = text(document())
        var search = file.startIndex
        var streams = 0
        while let length = file.range(of: "/Length ", range: search..<file.endIndex) {
            let value = try #require(Int(file[length.upperBound...].prefix { $0.isNumber }))
            let start = try #require(file.range(of: "stream\n", range: length.upperBound..<file.endIndex)).upperBound
            let end = try #require(file.range(of: "\nendstream", range: start..<file.endIndex)).lowerBound
            #expect(file.distance(from: start, to: end) == value)
            search = end
            streams += 1
        }
        #expect(streams == 2)
    }

    @Test("text is written as an escaped literal in a standard font")
    func textLiteral() {
        let file = text(document())
        #expect(file.contains("(Cranial \\(vault\\) \\\\ index) Tj"))
        #expect(file.contains("/BaseFont /Helvetica /Encoding /WinAnsiEncoding"))
        #expect(file.contains("[2 1] 0 d"))
        // Points are measured from the top; PDF from the bottom of the 841.89 pt page.
        #expect(file.contains("50 781.89 Td"))
    }

    @Test("the same pages give the same bytes")
    func deterministic() {
        #expect(document() == document())
    }

    @Test("WinAnsi keeps German letters and symbols, and replaces what it lacks")
    func winAnsi() {
        #expect(WinAnsi.encode("Größe ä–°µ") == [0x47, 0x72, 0xF6, 0xDF, 0x65, 0x20, 0xE4, 0x96, 0xB0, 0xB5])
        #expect(WinAnsi.encode("头") == [UInt8(ascii: "?")])
        // A bound on an angle ("0-0-≥118") is spelled, not lost.
        #expect(WinAnsi.encode("≥1 ≤2") == Array(">=1 <=2".utf8))
        #expect(PDFString.literal("a(b)\u{1}") == "(a\\(b\\) )")
    }

    @Test("widths follow Helvetica's metrics", arguments: [("0123456789", 55.6), ("Il", 5), ("W", 9.44)])
    func widths(text: String, width: Double) {
        #expect(abs(PDFFont.regular.width(of: text, size: 10) - width) < 1e-9)
        #expect(PDFFont.bold.width(of: text, size: 10) >= width)
    }

    @Test("wrapping keeps lines within the width and long words whole")
    func wrapping() {
        let text = "The measured slice lies at the height of the greatest outline above the reference plane through the tragions and the nasion"
        let lines = PDFCanvas.wrap(text, width: 120, size: 10, font: .regular)
        #expect(lines.count > 3)
        #expect(lines.joined(separator: " ") == text)
        #expect(lines.allSatisfy { PDFFont.regular.width(of: $0, size: 10) <= 120 })
        #expect(PDFCanvas.wrap("Cephalometrically", width: 10, size: 10, font: .regular) == ["Cephalometrically"])
    }

    @Test(
        "numbers have no exponent and at most three decimals",
        arguments: [
            (2.0, "2"), (1.5, "1.5"), (-0.0004, "0"), (841.89, "841.89"), (1e-7, "0"), (-12.3456, "-12.346"), (Double.nan, "0"),
        ])
    func numbers(value: Double, written: String) {
        #expect(PDFNumber.format(value) == written)
    }
}
