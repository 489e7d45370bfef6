/// A PDF 1.4 file of vector pages: lines, filled shapes and text in the standard Helvetica
/// fonts. Small and dependency-free, so reports come out the same on iOS and Linux.
public struct PDFDocument: Sendable {
    /// Page width and height in points (1/72 inch).
    public let pageSize: SIMD2<Double>
    /// Document title, shown by readers.
    public var title: String
    /// Finished pages' content streams.
    private var pages: [[UInt8]] = []

    /// A4 portrait in points.
    public static let a4 = SIMD2<Double>(595.28, 841.89)

    /// An empty document with pages of `pageSize` points.
    public init(title: String, pageSize: SIMD2<Double> = PDFDocument.a4) {
        self.title = title
        self.pageSize = pageSize
    }

    /// Number of pages added so far.
    public var pageCount: Int { pages.count }

    /// Adds a page drawn by `canvas`.
    public mutating func add(_ canvas: PDFCanvas) {
        pages.append(canvas.content)
    }

    /// The file's bytes. `creationDate` is `D:YYYYMMDDHHmmSS` or nil to leave it out, which
    /// keeps the output byte-identical between runs.
    public func encoded(creationDate: String? = nil) -> [UInt8] {
        var writer = ObjectWriter()
        let pageIDs = pages.indices.map { 6 + 2 * $0 }
        writer.add(1, "<< /Type /Catalog /Pages 2 0 R >>")
        writer.add(2, "<< /Type /Pages /Kids [\(pageIDs.map { "\($0) 0 R" }.joined(separator: " "))] /Count \(pages.count) >>")
        writer.add(3, "<< /Type /Font /Subtype /Type1 /BaseFont /\(PDFFont.regular.baseFont) /Encoding /WinAnsiEncoding >>")
        writer.add(4, "<< /Type /Font /Subtype /Type1 /BaseFont /\(PDFFont.bold.baseFont) /Encoding /WinAnsiEncoding >>")
        var info = "<< /Title \(PDFString.literal(title)) /Producer (HeadScan)"
        if let creationDate { info += " /CreationDate (\(creationDate))" }
        writer.add(5, info + " >>")
        let box = "[0 0 \(PDFNumber.format(pageSize.x)) \(PDFNumber.format(pageSize.y))]"
        for (index, content) in pages.enumerated() {
            let page = pageIDs[index]
            writer.add(
                page, "<< /Type /Page /Parent 2 0 R /MediaBox \(box) /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents \(page + 1) 0 R >>")
            writer.addStream(page + 1, content)
        }
        return writer.finish(root: 1, info: 5)
    }
}

/// Appends numbered objects and writes the cross-reference table that readers use to find
/// them by byte offset.
private struct ObjectWriter {
    private(set) var bytes: [UInt8] = Array("%PDF-1.4\n%\u{E2}\u{E3}\u{CF}\u{D3}\n".unicodeScalars.map { UInt8($0.value) })
    private var offsets: [Int: Int] = [:]

    package mutating func add(_ id: Int, _ body: String) {
        offsets[id] = bytes.count
        append("\(id) 0 obj\n")
        // Bodies are built from one-byte characters already (PDFString), so copy them as bytes.
        bytes += body.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
        append("\nendobj\n")
    }

    package mutating func addStream(_ id: Int, _ content: [UInt8]) {
        offsets[id] = bytes.count
        append("\(id) 0 obj\n<< /Length \(content.count) >>\nstream\n")
        bytes += content
        append("\nendstream\nendobj\n")
    }

    package mutating func finish(root: Int, info: Int) -> [UInt8] {
        let count = (offsets.keys.max() ?? 0) + 1
        let start = bytes.count
        append("xref\n0 \(count)\n0000000000 65535 f \n")
        for id in 1..<count {
            let offset = String(offsets[id] ?? 0)
            append(String(repeating: "0", count: 10 - offset.count) + offset + (offsets[id] == nil ? " 00000 f \n" : " 00000 n \n"))
        }
        append("trailer\n<< /Size \(count) /Root \(root) 0 R /Info \(info) 0 R >>\nstartxref\n\(start)\n%%EOF\n")
        return bytes
    }

    private mutating func append(_ text: String) { bytes += Array(text.utf8) }
}

/// PDF literal strings.
package enum PDFString {
    /// `(text)` in WinAnsi with the characters that end or escape a string escaped.
    package static func literal(_ text: String) -> String {
        var out = "("
        for byte in WinAnsi.encode(text) {
            switch byte {
            case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "\\"):
                out += "\\" + String(UnicodeScalar(byte))
            case 0..<32:
                out += " "
            default:
                out.unicodeScalars.append(UnicodeScalar(byte))
            }
        }
        return out + ")"
    }
}

/// Numbers as PDF writes them: no exponent, at most three decimals.
package enum PDFNumber {
    package static func format(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let thousandths = Int((value * 1000).rounded())
        if thousandths % 1000 == 0 { return String(thousandths / 1000) }
        let sign = thousandths < 0 ? "-" : ""
        let magnitude = abs(thousandths)
        var fraction = String(magnitude % 1000)
        fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(sign)\(magnitude / 1000).\(fraction)"
    }
}
