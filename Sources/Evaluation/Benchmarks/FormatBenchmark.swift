import Foundation
import Geometry
import Imaging
import Recording
import Simulation

/// Runs the file-format benchmark: one thread, synthetic frames, a temporary file.
public struct FormatBenchmark {
    public let frames: Int
    public let colorCodec: ColorCodec
    public let seed: UInt64

    public init(frames: Int, colorCodec: ColorCodec, seed: UInt64) {
        (self.frames, self.colorCodec, self.seed) = (frames, colorCodec, seed)
    }

    private let clock = ContinuousClock()
    private let codec = ImageCodecs.system

    /// Writes and reads the frames; `writing` and `reading` hear frames done of all.
    public func run(writing: (Int, Int) -> Void = { _, _ in }, reading: (Int, Int) -> Void = { _, _ in }) throws -> FormatBenchResult {
        let scene = SyntheticScene(seed: seed)
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("headscan-bench-\(ProcessInfo.processInfo.processIdentifier).hscan")
        defer { try? FileManager.default.removeItem(at: url) }

        var depth = DepthTimes()
        let writeTime = try record(scene, to: url, depth: &depth, progress: writing)
        let readTime = try readBack(url, progress: reading)
        let bytes = try ScanReader(url: url).fileSize()
        let pixels = scene.width * scene.height
        let rawBytes = frames * pixels * 6
        let rawDepth = Double(frames * pixels * 2)
        return FormatBenchResult(
            frames: frames, width: scene.width, height: scene.height, colorCodec: "\(colorCodec)",
            writeFPS: Double(frames) / writeTime, readFPS: Double(frames) / readTime,
            bytes: bytes, rawBytes: rawBytes, sizeRatio: Double(bytes) / Double(rawBytes),
            depthRatio: Double(depth.codecBytes) / rawDepth, pngDepthRatio: Double(depth.pngBytes) / rawDepth,
            depthEncodeMs: depth.codecEncode * 1000 / Double(frames),
            depthDecodeMs: depth.codecDecode * 1000 / Double(frames),
            pngDepthEncodeMs: depth.pngEncode * 1000 / Double(frames),
            pngDepthDecodeMs: depth.pngDecode * 1000 / Double(frames))
    }

    /// Seconds spent in the writer (encoding and writing), frames made outside the clock.
    private func record(_ scene: SyntheticScene, to url: URL, depth: inout DepthTimes, progress: (Int, Int) -> Void) throws -> Double {
        let intrinsics = CameraIntrinsics(
            fx: scene.fx, fy: scene.fy, cx: scene.cx, cy: scene.cy, width: scene.width, height: scene.height)
        let header = ScanHeader(
            device: "synthetic", appVersion: HeadScanVersion.current, colorIntrinsics: intrinsics,
            depthIntrinsics: intrinsics, capLayoutName: "none", metadata: ["seed": "\(seed)"])
        var elapsed = Duration.zero
        let start = clock.now
        let writer = try ScanWriter(
            url: url, header: header, options: .init(colorCodec: colorCodec, overwrite: true), imageCodec: codec)
        elapsed += clock.now - start
        for index in 0..<frames {
            let (color, depthMap) = scene.frame(at: index)
            let frame = RGBDFrame(
                timestamp: scene.timestamp(at: index), color: color, depth: depthMap,
                colorIntrinsics: intrinsics, depthIntrinsics: intrinsics)
            elapsed += try clock.measure { try writer.append(frame) }
            try depth.measure(depthMap, codec: codec, clock: clock)
            progress(index + 1, frames)
        }
        elapsed += try clock.measure { try writer.close() }
        return elapsed.seconds
    }

    /// Seconds to open the file and decode every frame in order.
    private func readBack(_ url: URL, progress: (Int, Int) -> Void) throws -> Double {
        var decoded = 0
        let elapsed = try clock.measure {
            let reader = try ScanReader(url: url, imageCodec: codec)
            for result in reader.frames() {
                _ = try result.get()
                decoded += 1
                progress(decoded, reader.frameCount)
            }
        }
        return elapsed.seconds
    }
}

/// Depth codec against 16-bit PNG of the same Float16 values, per frame.
private struct DepthTimes {
    public var codecBytes = 0, pngBytes = 0
    public var codecEncode = 0.0, codecDecode = 0.0, pngEncode = 0.0, pngDecode = 0.0

    public mutating func measure(_ depth: DepthImage, codec: any ImageCodec, clock: ContinuousClock) throws {
        var encoded: [UInt8] = []
        codecEncode += clock.measure { encoded = DepthCodec.encode(depth) }.seconds
        codecDecode += try clock.measure { _ = try DepthCodec.decode(encoded) }.seconds
        codecBytes += encoded.count
        let halves = depth.map { Float16($0).bitPattern }
        var png: [UInt8] = []
        pngEncode += try clock.measure { png = try codec.encodePNG(.gray16(halves)) }.seconds
        pngDecode += try clock.measure { _ = try codec.decodePNG(png) }.seconds
        pngBytes += png.count
    }
}

extension Duration {
    /// The duration in seconds.
    public var seconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) * 1e-18
    }
}

/// The figures `bench format` reports; field names are a contract scripts depend on.
public struct FormatBenchResult: Encodable {
    public var frames: Int
    public var width: Int
    public var height: Int
    public var colorCodec: String
    public var writeFPS: Double
    public var readFPS: Double
    public var bytes: Int
    public var rawBytes: Int
    public var sizeRatio: Double
    public var depthRatio: Double
    public var pngDepthRatio: Double
    public var depthEncodeMs: Double
    public var depthDecodeMs: Double
    public var pngDepthEncodeMs: Double
    public var pngDepthDecodeMs: Double
}
