import ArgumentParser
import Evaluation
import Foundation
import Geometry
import Recording
import Simulation

/// `headscan synthesize`: a recording of synthetic frames, for trying tools and benchmarks.
struct SynthesizeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "synthesize",
        abstract: "Record synthetic RGB-D frames (a head-like surface with sensor noise) to a scan file.",
        discussion: """
            The frames are deterministic for a seed. Use it to try export, replay and \
            inspect without a phone, or to make long recordings for memory tests.

            Example:
              headscan synthesize --seconds 180 --out long.hscan
            """)

    @Option(help: "The scan file to create.")
    var out: String

    @Option(help: "Length of the recording in seconds, at 30 frames per second.")
    var seconds: Double = 10

    @Option(help: "Scene seed.")
    var seed: UInt64 = 1

    @OptionGroup var colorOptions: ColorOptions

    @Flag(help: "Replace the output file if it exists.")
    var overwrite = false

    func validate() throws {
        guard seconds > 0 else { throw ValidationError("--seconds must be positive") }
    }

    func run() throws {
        let scene = SyntheticScene(seed: seed)
        let intrinsics = CameraIntrinsics(
            fx: scene.fx, fy: scene.fy, cx: scene.cx, cy: scene.cy, width: scene.width, height: scene.height)
        let header = ScanHeader(
            device: "synthetic", appVersion: HeadScanVersion.current, colorIntrinsics: intrinsics,
            depthIntrinsics: intrinsics, capLayoutName: "none", metadata: ["seed": "\(seed)"])
        let writer = try ScanWriter(
            url: fileURL(out), header: header,
            options: .init(colorCodec: colorOptions.codec, overwrite: overwrite))
        let count = Int((seconds * scene.frameRate).rounded())
        var bar = ProgressBar("Recording")
        for index in 0..<count {
            let (colorImage, depth) = scene.frame(at: index)
            try writer.append(
                RGBDFrame(
                    timestamp: scene.timestamp(at: index), color: colorImage, depth: depth,
                    colorIntrinsics: intrinsics, depthIntrinsics: intrinsics))
            bar.update(index + 1, of: count)
        }
        try writer.close()
        print("Wrote \(count) frames (\(writer.bytesWritten) bytes) to \(out)")
    }
}
