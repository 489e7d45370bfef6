import ArgumentParser
import Foundation
import Imaging
import Markers

/// `headscan markers`: draw markers for printing caps and for tests.
struct MarkersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "markers",
        abstract: "Draw ArUco/AprilTag markers: printable sheets, single images, the cap layout.",
        subcommands: [PrintSheet.self, Board.self, Export.self, Cap.self])

    /// `headscan markers print`: a sheet at a given dpi.
    struct PrintSheet: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "print",
            abstract: "Write a printable PNG sheet of markers at a true physical size.",
            discussion: """
                The marker side is rounded to whole pixels at the chosen resolution; the size \
                actually printed is reported. Print at 100 % (no "fit to page") and measure one \
                marker's black square with a ruler: scans take their scale from the stickers' \
                printed size, so a sheet printed at 99 % makes every head 1 % small.

                Example:
                  headscan markers print --dictionary 4x4_100 --ids 0-56 --size-mm 14 --out sheet.png
                """)

        @Option(help: "Dictionary, OpenCV's name without DICT_ (4x4_100, aruco_original, apriltag_36h11, ...).")
        var dictionary = MarkerDictionary.standardCap
        @Option(help: "Marker IDs: ranges and lists, such as 0-56 or 1,4,9-12.")
        var ids = "0-56"
        @Option(name: .customLong("size-mm"), help: "Printed side of each marker (outer black border) in millimetres.")
        var sizeMillimetres = CapLayout.standard.markerSideMillimetres
        @Option(help: "Printer resolution in dots per inch.")
        var dpi = 300.0
        @Option(name: .customLong("gap-mm"), help: "White space between markers in millimetres (cutting margin).")
        var gapMillimetres = 6.0
        @Option(name: .customLong("page-width-mm"), help: "Page width in millimetres; rows wrap to fit it.")
        var pageWidthMillimetres = 210.0
        @Option(help: "Output PNG file.")
        var out: String

        func run() throws {
            let chosen = dictionary
            let idList = try parseIDs(ids)
            let pixelsPerMillimetre = dpi / 25.4
            let side = Int((sizeMillimetres * pixelsPerMillimetre).rounded())
            let gap = Int((gapMillimetres * pixelsPerMillimetre).rounded())
            guard side >= chosen.markerSize + 2 else {
                throw ValidationError("\(sizeMillimetres) mm at \(dpi) dpi is too small to draw a \(chosen.markerSize)x\(chosen.markerSize) marker")
            }
            let sheet = try MarkerRenderer(dictionary: chosen).sheet(
                ids: idList, markerSide: side, gap: gap, margin: gap,
                maxWidth: Int((pageWidthMillimetres * pixelsPerMillimetre).rounded()))
            let bytes = try ImageCodecs.system.encodePNG(.gray8(sheet), dotsPerInch: dpi)
            try Data(bytes).write(to: fileURL(out))
            let actual = Double(side) / pixelsPerMillimetre
            print(
                """
                wrote \(out): \(idList.count) markers of \(chosen.name), \(side) px = \
                \(String(format: "%.2f", actual)) mm each at \(Int(dpi)) dpi, sheet \(sheet.width)x\(sheet.height) px \
                (\(String(format: "%.0f", Double(sheet.width) / pixelsPerMillimetre))x\
                \(String(format: "%.0f", Double(sheet.height) / pixelsPerMillimetre)) mm); print at \(Int(dpi)) dpi, 100 %, \
                and check with a ruler that a marker's black square is \(String(format: "%.2f", actual)) mm
                """)
        }
    }

    /// `headscan markers export`: one PNG per marker, for tests and benchmarks.
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Write one PNG per marker (DIR/ID.png), pixel-identical to OpenCV's generateImageMarker.")

        @Option(help: "Dictionary name.")
        var dictionary = MarkerDictionary.standardCap
        @Option(help: "Marker IDs: ranges and lists, such as 0-56 or 1,4,9-12.")
        var ids = "0-56"
        @Option(help: "Side of each marker image in pixels.")
        var size = 120
        @Option(name: .customLong("quiet-zone"), help: "White pixels around each marker.")
        var quietZone = 0
        @Option(name: .customLong("out-dir"), help: "Folder to write into (created if missing).")
        var outDirectory: String

        func run() throws {
            let renderer = MarkerRenderer(dictionary: dictionary)
            let folder = fileURL(outDirectory)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let idList = try parseIDs(ids)
            for id in idList {
                let image = try renderer.marker(id: id, side: size, quietZone: quietZone)
                let bytes = try ImageCodecs.system.encodePNG(.gray8(image))
                try Data(bytes).write(to: folder.appendingPathComponent("\(id).png"))
            }
            print("wrote \(idList.count) markers to \(outDirectory)")
        }
    }

    /// `headscan markers cap`: the cap layout as JSON, or a check of a layout file.
    struct Cap: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cap",
            abstract: "Print the built-in cap layout as JSON, or check a cap layout file.",
            discussion: """
                A cap layout file is JSON: name, dictionaryName (OpenCV's name without DICT_), \
                markerSideMillimetres (printed side of the outer black border) and markers, each \
                with id and region (front, left, right, back, top), optionally its own \
                sideMillimetres and a placement on the template head (azimuthDegrees: 0 right \
                ear, 90 forehead, 180 left ear, 270 back; elevationDegrees: 90 crown); a printed \
                board's markers carry boardPosition (xMillimetres, yMillimetres of the centre, y \
                up; `headscan markers board` writes them). Give it to \
                simulate, demo, replay and reconstruct with --cap FILE; scans keep the layout \
                they were recorded with.

                Examples:
                  headscan markers cap --json > mycap.json
                  headscan markers cap --check mycap.json
                """)

        @Flag(help: "Print the layout as JSON (the format of a layout file).")
        var json = false

        @Option(help: "A cap layout JSON file to validate; lists every problem found.", completion: .file(extensions: ["json"]))
        var check: String?

        @Option(help: "Print this layout file (validated) instead of the built-in one.", completion: .file(extensions: ["json"]))
        var file: String?

        func validate() throws {
            if check != nil, file != nil { throw ValidationError("give either --check FILE or --file FILE") }
        }

        func run() throws {
            if let check {
                let layout = try CapLayoutFile.read(check)
                let dictionary = try layout.dictionary()
                let regions = HeadRegion.allCases.map { "\($0.rawValue) \(layout.ids(in: $0).count)" }.joined(separator: ", ")
                let sizes = Set(layout.markers.map { $0.sideMillimetres ?? layout.markerSideMillimetres }).sorted()
                print(
                    """
                    \(check): cap layout "\(layout.name)" is valid: \(layout.markers.count) markers of \(dictionary.name), \
                    \(sizes.map { String(format: "%g", $0) }.joined(separator: "/")) mm; \(regions)
                    """)
                return
            }
            let layout = try file.map(CapLayoutFile.read) ?? CapLayout.standard
            if json {
                print(String(decoding: try layout.encodedJSON(), as: UTF8.self))
            } else {
                let regions = HeadRegion.allCases.map { "  \($0.rawValue): \(layout.ids(in: $0).map(String.init).joined(separator: ", "))" }
                print(
                    """
                    cap layout "\(layout.name)": \(layout.markers.count) markers of \(layout.dictionaryName), \
                    \(String(format: "%g", layout.markerSideMillimetres)) mm
                    \(regions.joined(separator: "\n"))
                    (--json prints it as a layout file)
                    """)
            }
        }
    }
}

/// Parses marker ID lists such as `0-56` or `1,4,9-12`.
func parseIDs(_ text: String) throws -> [Int] {
    var ids: [Int] = []
    for part in text.split(separator: ",") {
        let bounds = part.split(separator: "-", omittingEmptySubsequences: false)
        if bounds.count == 1, let id = Int(bounds[0].trimmingCharacters(in: .whitespaces)) {
            ids.append(id)
        } else if bounds.count == 2,
            let low = Int(bounds[0].trimmingCharacters(in: .whitespaces)),
            let high = Int(bounds[1].trimmingCharacters(in: .whitespaces)), low <= high
        {
            ids.append(contentsOf: low...high)
        } else {
            throw ValidationError("'\(part)' is not an ID or a range like 0-56")
        }
    }
    guard !ids.isEmpty else { throw ValidationError("no marker IDs given") }
    return ids
}
