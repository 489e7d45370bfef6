import ArgumentParser
import Evaluation
import Foundation
import Geometry
import Imaging
import Recording

/// `headscan bench format`: write, read and size figures of the scan file format.
struct FormatBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "format",
        abstract: "Benchmark the scan file format on realistic 640x480 RGB-D frames.",
        discussion: """
            Records synthetic frames (a head-like surface with sensor noise and holes, \
            textured colour) to a temporary file on one core, reads them back, and compares \
            the lossless depth codec with 16-bit PNG of the same Float16 depth. Only encoding, \
            writing, reading and decoding are timed, not making the frames.

            Example:
              swift run -c release headscan bench format --json
            """)

    @Option(help: "Number of frames.")
    var frames = 300

    @OptionGroup var colorOptions: ColorOptions

    @Option(help: "Scene seed.")
    var seed: UInt64 = 1

    @OptionGroup var outputOptions: OutputOptions

    func validate() throws {
        guard frames > 0 else { throw ValidationError("--frames must be positive") }
    }

    func run() throws {
        var writing = ProgressBar("Writing"), reading = ProgressBar("Reading")
        let result = try FormatBenchmark(frames: frames, colorCodec: colorOptions.codec, seed: seed)
            .run(writing: { writing.update($0, of: $1) }, reading: { reading.update($0, of: $1) })
        try outputOptions.emit(result)
    }
}

extension FormatBenchResult: TextReport {
    var text: String {
        func f(_ x: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", x) }
        return """
            \(frames) frames \(width)x\(height), colour \(colorCodec)
            write:  \(f(writeFPS)) frames/s   read: \(f(readFPS)) frames/s (one core)
            size:   \(bytes) bytes = \(f(sizeRatio, 3)) of raw \(rawBytes)
            depth:  ratio \(f(depthRatio, 3)) (16-bit PNG: \(f(pngDepthRatio, 3)))
                    encode \(f(depthEncodeMs, 2)) ms, decode \(f(depthDecodeMs, 2)) ms per frame \
            (16-bit PNG: \(f(pngDepthEncodeMs, 2)) ms, \(f(pngDepthDecodeMs, 2)) ms)
            """
    }
}
