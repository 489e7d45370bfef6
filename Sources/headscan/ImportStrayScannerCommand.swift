import ArgumentParser
import Foundation
import Recording

/// `headscan import-stray`: a Stray Scanner recording as a scan file.
struct ImportStrayScannerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-stray",
        abstract: "Turn a Stray Scanner recording (iPhone RGB-D app) into a scan file.",
        discussion: """
            Reads camera_matrix.csv (the colour camera for the app's 1920x1440 video), \
            odometry.csv (each frame's time), depth/NNNNNN.png (16-bit millimetres) and, when \
            there, confidence/NNNNNN.png (depth below --min-confidence is dropped). The colour \
            comes from frames extracted from rgb.mp4 into rgb/, in name order; this tool has no \
            video decoder. The camera matrix is scaled to the extracted frames' size and to \
            the depth maps'.

            Examples:
              mkdir rec/rgb && ffmpeg -i rec/rgb.mp4 rec/rgb/%06d.png
              headscan import-stray rec/ --out rec.hscan
              headscan import-stray rec/ --out rec.hscan --min-confidence 2 --color png
            """)

    @Argument(help: "The recording's folder.", completion: .directory)
    var folder: String

    @Option(help: "The scan file to create.", completion: .file(extensions: ["hscan"]))
    var out: String

    @Option(help: "Drop depth whose confidence is below this (0 keeps all, 2 only the surest).")
    var minConfidence: UInt8 = 1

    @Option(help: "Depth PNG units per metre.")
    var depthScale: Float = StrayScannerImporter.depthScale

    @Option(help: "The frame size the camera matrix belongs to, WIDTHxHEIGHT.")
    var referenceSize = "1920x1440"

    @OptionGroup var colorOptions: ColorOptions

    @Flag(help: "Replace the output file if it exists.")
    var overwrite = false

    func validate() throws {
        guard minConfidence <= 2 else { throw ValidationError("--min-confidence is 0, 1 or 2") }
        guard reference != nil else { throw ValidationError("--reference-size is WIDTHxHEIGHT, e.g. 1920x1440") }
    }

    private var reference: (width: Int, height: Int)? {
        let parts = referenceSize.lowercased().split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts[0] > 0, parts[1] > 0 else { return nil }
        return (parts[0], parts[1])
    }

    func run() throws {
        guard let reference else { throw ValidationError("--reference-size is WIDTHxHEIGHT, e.g. 1920x1440") }
        var bar = ProgressBar("Importing")
        let options = ScanWriter.Options(colorCodec: colorOptions.codec, overwrite: overwrite)
        let count = try StrayScannerImporter().importFolder(
            fileURL(folder), to: fileURL(out), options: options, depthScale: depthScale, minimumConfidence: minConfidence,
            referenceSize: reference
        ) {
            bar.update($0, of: $1)
        }
        print("Imported \(count) frames into \(out)")
    }
}
