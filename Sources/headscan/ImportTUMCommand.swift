import ArgumentParser
import Foundation
import Recording

/// `headscan import-tum`: a TUM RGB-D folder as a scan file.
struct ImportTUMCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-tum",
        abstract: "Turn a TUM RGB-D folder into a scan file.",
        discussion: """
            Pairs colour and depth from associations.txt (or by nearest timestamps from \
            rgb.txt and depth.txt). Camera models come from intrinsics.json when present, \
            otherwise TUM's 640x480 default (fx = fy = 525).

            Example:
              headscan import-tum scan-tum/ --out scan.hscan --color png
            """)

    @Argument(help: "The TUM folder.")
    var folder: String

    @Option(help: "The scan file to create.")
    var out: String

    @OptionGroup var colorOptions: ColorOptions

    @Flag(help: "Replace the output file if it exists.")
    var overwrite = false

    func run() throws {
        var bar = ProgressBar("Importing")
        let options = ScanWriter.Options(colorCodec: colorOptions.codec, overwrite: overwrite)
        let count = try TUMImporter().importFolder(fileURL(folder), to: fileURL(out), options: options) {
            bar.update($0, of: $1)
        }
        print("Imported \(count) frames into \(out)")
    }
}
