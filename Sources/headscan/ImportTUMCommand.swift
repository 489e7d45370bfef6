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
            rgb.txt and depth.txt). The camera model comes from --intrinsics FILE, else from \
            intrinsics.json or camera_intrinsic.json in the folder, else TUM's 640x480 default \
            (fx = fy = 525). Camera files may be HeadScan's intrinsics.json, Open3D's \
            PinholeCameraIntrinsic JSON (width, height, column-major intrinsic_matrix) or a \
            plain {fx, fy, cx, cy, width, height} object. Depth PNGs hold --depth-scale units \
            per metre: 5000 for TUM (the default), 1000 for RealSense and Azure Kinect millimetres. \
            Depth may also be 32-bit floats in PFM files (Pf, as OpenCV writes them), in metres \
            unless --float-depth-scale says otherwise.

            Examples:
              headscan import-tum scan-tum/ --out scan.hscan --color png
              headscan import-tum realsense/ --intrinsics camera_intrinsic.json --depth-scale 1000 --out scan.hscan
            """)

    @Argument(help: "The TUM folder.")
    var folder: String

    @Option(help: "The scan file to create.")
    var out: String

    @Option(
        help: "Camera file: HeadScan's intrinsics.json, Open3D's PinholeCameraIntrinsic JSON, or {fx, fy, cx, cy, width, height}.",
        completion: .file(extensions: ["json"]))
    var intrinsics: String?

    @Option(help: "Depth PNG units per metre: 5000 for TUM, 1000 for RealSense millimetres (default: the camera file's, else 5000).")
    var depthScale: Float?

    @Option(help: "Units per metre of depth stored as 32-bit floats (PFM files): 1 for metres, 1000 for millimetres.")
    var floatDepthScale: Float = 1

    @OptionGroup var colorOptions: ColorOptions

    @Flag(help: "Replace the output file if it exists.")
    var overwrite = false

    func run() throws {
        var bar = ProgressBar("Importing")
        let options = ScanWriter.Options(colorCodec: colorOptions.codec, overwrite: overwrite)
        let count = try TUMImporter().importFolder(
            fileURL(folder), to: fileURL(out), options: options, cameraFile: intrinsics.map(fileURL), depthScale: depthScale,
            floatDepthScale: floatDepthScale
        ) {
            bar.update($0, of: $1)
        }
        print("Imported \(count) frames into \(out)")
    }
}
