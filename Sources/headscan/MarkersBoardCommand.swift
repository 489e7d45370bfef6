import ArgumentParser
import Foundation
import Imaging
import Markers

extension MarkersCommand {
    /// `headscan markers board`: a printable board and its layout file, for `check-phone`.
    struct Board: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "board",
            abstract: "Write a printable marker board (PNG) and its layout file, for checking a phone.",
            discussion: """
                The board has --rows by --columns markers, IDs from 0 row by row. The marker \
                side is rounded to whole pixels at the chosen resolution, and the layout file \
                records the side and every marker's position actually printed, so that \
                `headscan check-phone --cap LAYOUT` compares with the truth. Print at 100 % (no "fit to page") and measure one \
                marker's black square with a ruler: it must be the size printed below.

                Examples:
                  headscan markers board --out board.png            # 5 x 7 markers of 20 mm, board.json beside it
                  headscan markers board --rows 3 --columns 4 --size-mm 40 --gap-mm 10 --out big.png --layout big.json
                """)

        @Option(help: "Dictionary, OpenCV's name without DICT_.")
        var dictionary = MarkerDictionary.standardCap
        @Option(help: "Rows of markers.")
        var rows = 5
        @Option(help: "Columns of markers.")
        var columns = 7
        @Option(name: .customLong("size-mm"), help: "Printed side of each marker (outer black border) in millimetres.")
        var sizeMillimetres = 20.0
        @Option(name: .customLong("gap-mm"), help: "White space between markers in millimetres.")
        var gapMillimetres = 5.0
        @Option(help: "Printer resolution in dots per inch.")
        var dpi = 300.0
        @Option(help: "Output PNG file.")
        var out: String
        @Option(help: "The layout file to write (default: the PNG's name with .json).")
        var layout: String?

        func validate() throws {
            guard rows >= 1, columns >= 1 else { throw ValidationError("--rows and --columns must be at least 1") }
            guard rows * columns <= dictionary.count else {
                throw ValidationError("\(dictionary.name) has \(dictionary.count) markers; \(rows) x \(columns) need \(rows * columns)")
            }
            guard sizeMillimetres > 0, gapMillimetres >= 0, dpi >= 72, dpi <= 2400 else {
                throw ValidationError("--size-mm must be positive, --gap-mm not negative and --dpi in 72...2400")
            }
        }

        func run() throws {
            let pixelsPerMillimetre = dpi / 25.4
            let side = Int((sizeMillimetres * pixelsPerMillimetre).rounded())
            let gap = Int((gapMillimetres * pixelsPerMillimetre).rounded())
            guard side >= dictionary.markerSize + 2 else {
                throw ValidationError(
                    "\(sizeMillimetres) mm at \(dpi) dpi is too small to draw a \(dictionary.markerSize)x\(dictionary.markerSize) marker")
            }
            let ids = Array(0..<(rows * columns))
            let margin = max(gap, Int((5 * pixelsPerMillimetre).rounded()))
            let sheet = try MarkerRenderer(dictionary: dictionary).sheet(ids: ids, markerSide: side, gap: gap, margin: margin, columns: columns)
            try Data(ImageCodecs.system.encodePNG(.gray8(sheet), dotsPerInch: dpi)).write(to: fileURL(out))
            let printed = Double(side) / pixelsPerMillimetre
            let board = CapLayout(
                name: "board-\(rows)x\(columns)", dictionaryName: dictionary.name, markerSideMillimetres: printed,
                markers: ids.map { id in
                    // Centres as drawn, from the sheet's top-left corner, y up.
                    let x = Double(margin + (id % columns) * (side + gap)) + Double(side) / 2
                    let y = Double(margin + (id / columns) * (side + gap)) + Double(side) / 2
                    return CapMarker(
                        id: id, region: .front,
                        boardPosition: BoardPosition(xMillimetres: x / pixelsPerMillimetre, yMillimetres: -y / pixelsPerMillimetre))
                })
            let layoutPath = layout ?? fileURL(out).deletingPathExtension().appendingPathExtension("json").path
            try Data(board.encodedJSON()).write(to: fileURL(layoutPath))
            print(
                """
                wrote \(out): \(rows) x \(columns) markers of \(dictionary.name), each \(String(format: "%.2f", printed)) mm \
                at \(Int(dpi)) dpi (print at 100 %), and its layout \(layoutPath)
                """)
        }
    }
}
