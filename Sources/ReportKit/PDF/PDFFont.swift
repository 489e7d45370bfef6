/// The two standard PDF fonts the report uses. Every PDF reader has them, so nothing is
/// embedded and the text stays extractable (`pdftotext`, screen readers, search).
public enum PDFFont: Sendable, Equatable {
    case regular, bold

    /// The name the page resources give the font.
    package var resourceName: String { self == .regular ? "F1" : "F2" }

    /// The PostScript name of the standard font.
    package var baseFont: String { self == .regular ? "Helvetica" : "Helvetica-Bold" }

    /// Width of `text` at `size` points, from the fonts' published metrics.
    public func width(of text: String, size: Double) -> Double {
        let table = self == .regular ? Self.regularWidths : Self.boldWidths
        var units = 0
        for byte in WinAnsi.encode(text) {
            if byte >= 32, byte <= 126 {
                units += table[Int(byte) - 32]
            } else {
                units += Self.latinWidths[byte] ?? 556
            }
        }
        return Double(units) * size / 1000
    }

    /// Helvetica advance widths for character codes 32...126, in 1/1000 em (Adobe AFM).
    private static let regularWidths: [Int] = [
        278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,
        556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,
        1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,
        667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,
        333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,
        556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
    ]

    /// Helvetica-Bold advance widths for character codes 32...126.
    private static let boldWidths: [Int] = [
        278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278,
        556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 333, 333, 584, 584, 584, 611,
        975, 722, 722, 722, 722, 667, 611, 778, 722, 278, 556, 722, 611, 833, 722, 778,
        667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 333, 278, 333, 584, 556,
        333, 556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556, 278, 889, 611, 611,
        611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, 389, 280, 389, 584,
    ]

    /// Widths of the WinAnsi characters outside ASCII that reports use; others count as 556.
    private static let latinWidths: [UInt8: Int] = [
        0x85: 1000, 0x91: 222, 0x92: 222, 0x93: 333, 0x94: 333, 0x95: 350, 0x96: 556, 0x97: 1000,
        0xA0: 278, 0xB0: 400, 0xB1: 584, 0xB5: 556, 0xB7: 278, 0xC4: 667, 0xD6: 778, 0xD7: 584,
        0xDC: 722, 0xDF: 611,
    ]
}

/// Windows-1252 ("WinAnsiEncoding"), the one-byte encoding the standard fonts use.
package enum WinAnsi {
    /// Characters 0x80...0x9F, which differ from Latin-1.
    private static let high: [Unicode.Scalar: UInt8] = [
        "\u{20AC}": 0x80, "\u{201A}": 0x82, "\u{2026}": 0x85, "\u{2018}": 0x91, "\u{2019}": 0x92,
        "\u{201C}": 0x93, "\u{201D}": 0x94, "\u{2022}": 0x95, "\u{2013}": 0x96, "\u{2014}": 0x97,
        "\u{2122}": 0x99, "\u{2212}": 0x2D,
    ]

    /// Characters the encoding lacks that a report writes, spelled in ones it has (a bound on
    /// an angle must not print as "?").
    private static let spelled: [Unicode.Scalar: [UInt8]] = ["\u{2265}": Array(">=".utf8), "\u{2264}": Array("<=".utf8)]

    /// The bytes of `text`; a character the encoding lacks becomes "?".
    package static func encode(_ text: String) -> [UInt8] {
        text.unicodeScalars.flatMap { scalar -> [UInt8] in
            if scalar.value < 0x80 || (scalar.value >= 0xA0 && scalar.value <= 0xFF) { return [UInt8(scalar.value)] }
            return spelled[scalar] ?? [high[scalar] ?? UInt8(ascii: "?")]
        }
    }
}
