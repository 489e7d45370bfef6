import Foundation
import Geometry
import Imaging

/// Reads a Stray Scanner recording (an iPhone RGB-D app) into a scan file.
///
/// The app writes `rgb.mp4`, `depth/NNNNNN.png` (16-bit, millimetres, 256x192),
/// `confidence/NNNNNN.png` (8-bit, 0 low to 2 high), `camera_matrix.csv` (the colour camera's
/// 3x3 intrinsic matrix for the video's 1920x1440 frames) and `odometry.csv` (per frame: time
/// and the phone's pose). The video is read as frames extracted into `rgb/` (PNG or JPEG, in
/// name order, the n-th file being frame n: `ffmpeg -i rgb.mp4 rgb/%06d.png` writes them so);
/// this build has no video decoder. The depth is registered to the colour camera, so its
/// intrinsics are the colour camera's scaled to the depth map's size.
public struct StrayScannerImporter {
    /// The frame size `camera_matrix.csv` refers to: the app's video.
    public static let videoSize = (width: 1920, height: 1440)
    /// Depth PNG units per metre: millimetres.
    public static let depthScale: Float = 1000

    private let imageCodec: any ImageCodec

    public init(imageCodec: any ImageCodec = ImageCodecs.system) {
        self.imageCodec = imageCodec
    }

    /// Writes the recording in `folder` to a new scan at `output` (nothing is left there when
    /// it fails); returns the frame count. Depth with a confidence below `minimumConfidence`
    /// is dropped; `referenceSize` is the frame size the camera matrix belongs to.
    @discardableResult
    public func importFolder(
        _ folder: URL, to output: URL, options: ScanWriter.Options = .init(), depthScale: Float = depthScale,
        minimumConfidence: UInt8 = 1, referenceSize: (width: Int, height: Int) = videoSize,
        progress: (Int, Int) -> Void = { _, _ in }
    ) throws -> Int {
        guard depthScale > 0, depthScale.isFinite else { throw StrayScannerError.badDepthScale(depthScale) }
        guard referenceSize.width > 0, referenceSize.height > 0 else {
            throw StrayScannerError.badFile(path: "reference size", reason: "width and height must be positive")
        }
        let matrix = try Self.cameraMatrix(try read(folder, "camera_matrix.csv"))
        let times = try Self.frameTimes(try read(folder, "odometry.csv"))
        let colours = try frames(in: folder, "rgb", extensions: ["png", "jpg", "jpeg"])
        let depths = try frames(in: folder, "depth", extensions: ["png"])
        let count = min(colours.count, depths.count)
        guard count > 0 else { throw StrayScannerError.missing("frames: rgb/ has \(colours.count), depth/ has \(depths.count)") }
        let hasConfidence = FileManager.default.fileExists(atPath: folder.appendingPathComponent("confidence").path)

        let first = try imageCodec.decodeAny(try read(folder, "rgb/" + colours[0]))
        let reference = CameraIntrinsics(
            fx: matrix.fx, fy: matrix.fy, cx: matrix.cx, cy: matrix.cy, width: referenceSize.width, height: referenceSize.height)
        let colorK = reference.scaled(toWidth: first.width, height: first.height)
        guard colorK.cx > 0.2 * Double(first.width), colorK.cx < 0.8 * Double(first.width),
            colorK.cy > 0.2 * Double(first.height), colorK.cy < 0.8 * Double(first.height)
        else {
            throw StrayScannerError.badFile(
                path: "camera_matrix.csv",
                reason:
                    "its centre (\(matrix.cx), \(matrix.cy)) does not fit \(referenceSize.width)x\(referenceSize.height) frames; give the size it belongs to with --reference-size"
            )
        }
        let firstDepth = try depthImage(folder, depths[0], scale: depthScale, confidence: nil)
        let depthK = colorK.scaled(toWidth: firstDepth.width, height: firstDepth.height)
        let start = times[0] ?? 0
        // The app's times count from the phone's start-up; the file's date is when it was recorded.
        let recorded =
            (try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("odometry.csv").path))?[.modificationDate] as? Date
        let header = ScanHeader(
            device: "Stray Scanner import", appVersion: HeadScanVersion.current, colorIntrinsics: colorK, depthIntrinsics: depthK,
            capLayoutName: "unknown", createdAt: recorded ?? Date(), metadata: ["source": folder.lastPathComponent])
        let writing = try options.forAtomicWrite(to: output)
        return try writeAtomically(output) { partial in
            let writer = try ScanWriter(url: partial, header: header, options: writing, imageCodec: imageCodec)
            for index in 0..<count {
                let color = index == 0 ? first : try imageCodec.decodeAny(try read(folder, "rgb/" + colours[index]))
                guard color.width == first.width, color.height == first.height else {
                    throw StrayScannerError.badFile(path: "rgb/" + colours[index], reason: "its size differs from the first frame's")
                }
                let confidence = hasConfidence ? "confidence/" + depths[index] : nil
                let depth = try depthImage(folder, depths[index], scale: depthScale, confidence: confidence.map { ($0, minimumConfidence) })
                guard depth.width == depthK.width, depth.height == depthK.height else {
                    throw StrayScannerError.badFile(path: "depth/" + depths[index], reason: "its size differs from the first depth map's")
                }
                guard let time = times[index] else {
                    throw StrayScannerError.badFile(path: "odometry.csv", reason: "it has no time for frame \(index)")
                }
                try writer.append(
                    RGBDFrame(
                        timestamp: time - start, color: color, depth: depth, colorIntrinsics: colorK, depthIntrinsics: depthK))
                progress(index + 1, count)
            }
            try writer.close()
            return count
        }
    }

    // MARK: Files

    private func read(_ folder: URL, _ path: String) throws -> [UInt8] {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent(path)) else { throw StrayScannerError.missing(path) }
        return Array(data)
    }

    /// File names in `sub` with one of `extensions`, in name order.
    private func frames(in folder: URL, _ sub: String, extensions: Set<String>) throws -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(sub).path) else {
            if sub == "rgb", FileManager.default.fileExists(atPath: folder.appendingPathComponent("rgb.mp4").path) {
                throw StrayScannerError.videoOnly
            }
            throw StrayScannerError.missing("\(sub)/")
        }
        return names.filter { extensions.contains(($0 as NSString).pathExtension.lowercased()) && !$0.hasPrefix(".") }.sorted()
    }

    /// Depth in metres; zero, and pixels whose confidence is below the minimum, as missing.
    private func depthImage(_ folder: URL, _ name: String, scale: Float, confidence: (path: String, minimum: UInt8)?) throws -> DepthImage {
        let path = "depth/" + name
        guard case .gray16(let raw) = try imageCodec.decodePNG(try read(folder, path)) else {
            throw StrayScannerError.badFile(path: path, reason: "depth must be a 16-bit grayscale PNG")
        }
        var depth = raw.map { $0 == 0 ? Float.nan : Float($0) / scale }
        if let confidence {
            guard case .gray8(let levels) = try imageCodec.decodePNG(try read(folder, confidence.path)) else {
                throw StrayScannerError.badFile(path: confidence.path, reason: "confidence must be an 8-bit grayscale PNG")
            }
            guard levels.width == depth.width, levels.height == depth.height else {
                throw StrayScannerError.badFile(path: confidence.path, reason: "its size differs from its depth map's")
            }
            for i in depth.pixels.indices where levels.pixels[i] < confidence.minimum { depth.pixels[i] = .nan }
        }
        return depth
    }

    // MARK: CSV

    /// fx, fy, cx, cy from the 3x3 matrix, one row per line, numbers separated by commas.
    static func cameraMatrix(_ bytes: [UInt8]) throws -> (fx: Double, fy: Double, cx: Double, cy: Double) {
        let rows = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { $0.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) } }
            .filter { !$0.isEmpty }
        guard rows.count == 3, rows.allSatisfy({ $0.count == 3 && $0.allSatisfy { $0?.isFinite == true } }) else {
            throw StrayScannerError.badFile(path: "camera_matrix.csv", reason: "it must hold 3 lines of 3 numbers separated by commas")
        }
        let m = rows.map { $0.map { $0 ?? 0 } }
        guard m[0][0] > 0, m[1][1] > 0, m[2][2] == 1, m[1][0] == 0, m[2][0] == 0, m[2][1] == 0 else {
            throw StrayScannerError.badFile(path: "camera_matrix.csv", reason: "it is not an intrinsic matrix [fx 0 cx; 0 fy cy; 0 0 1]")
        }
        return (m[0][0], m[1][1], m[0][2], m[1][2])
    }

    /// Seconds per frame number, from the lines after the header (`timestamp, frame, x, y, z,
    /// qx, qy, qz, qw`); the pose itself is the phone's own tracking and is not used.
    static func frameTimes(_ bytes: [UInt8]) throws -> [Int: Double] {
        var times: [Int: Double] = [:]
        for (n, line) in String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).enumerated().dropFirst() {
            let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count >= 2, let time = Double(fields[0]), time.isFinite, let frame = Int(fields[1]), frame >= 0 else {
                throw StrayScannerError.badFile(path: "odometry.csv", reason: "line \(n + 1) does not start with a time and a frame number")
            }
            times[frame] = time
        }
        guard !times.isEmpty else { throw StrayScannerError.badFile(path: "odometry.csv", reason: "it has no frames") }
        return times
    }
}

/// Why a Stray Scanner recording could not be imported.
public enum StrayScannerError: Error, Equatable, CustomStringConvertible {
    case missing(String)
    case badFile(path: String, reason: String)
    case badDepthScale(Float)
    /// Only `rgb.mp4` is there.
    case videoOnly

    public var description: String {
        switch self {
        case .missing(let what): "the Stray Scanner folder is missing \(what)"
        case .badFile(let path, let reason): "\(path): \(reason)"
        case .badDepthScale(let scale): "the depth scale must be a positive number of PNG units per metre (1000 for millimetres), not \(scale)"
        case .videoOnly:
            "the colour is only in rgb.mp4, which this tool cannot decode; extract its frames first: mkdir rgb && ffmpeg -i rgb.mp4 rgb/%06d.png"
        }
    }
}

extension StrayScannerError: LocalizedError {
    public var errorDescription: String? { description }
}
