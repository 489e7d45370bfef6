import ArgumentParser
import Foundation
import Recording

/// `headscan export`: a recording in a layout other tools read.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a scan for other tools (TUM RGB-D layout, read by Open3D and SLAM tools).",
        discussion: """
            Writes rgb/ (PNG), depth/ (16-bit PNG, 5000 per metre, 0 = no measurement), \
            rgb.txt, depth.txt, associations.txt and intrinsics.json into a new folder. \
            Damaged frames are left out and listed. The scan file is not changed.

            Example:
              headscan export scan.hscan --format tum --out scan-tum/
            """)

    /// Export layouts.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case tum
    }

    @Argument(help: "The scan file (.hscan).", completion: .file(extensions: ["hscan"]))
    var file: String

    @Option(help: "Output layout.")
    var format: Format = .tum

    @Option(help: "Output folder; must not exist or be empty.")
    var out: String

    func run() throws {
        let reader = try ScanReader(url: fileURL(file))
        var bar = ProgressBar("Exporting")
        let skipped = try TUMExporter().export(reader, to: fileURL(out)) { bar.update($0, of: $1) }
        print("Exported \(reader.frameCount - skipped.count) frames to \(out)")
        for problem in skipped { writeError("skipped: \(problem)\n") }
    }
}
