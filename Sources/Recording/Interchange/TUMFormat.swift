import Foundation
import Geometry

/// Constants and small helpers of the TUM RGB-D dataset layout, which Open3D and most
/// SLAM tools read: `rgb/` and `depth/` PNGs, `rgb.txt`, `depth.txt`, `associations.txt`.
public enum TUMFormat {
    /// Depth PNG value per metre (TUM's convention: 5000 = 1 m, 0 = no measurement).
    public static let depthScale: Float = 5000
    /// The camera models, written beside the images because the TUM layout has no place for them.
    public struct Intrinsics: Codable, Equatable, Sendable {
        /// Camera model of the colour images.
        public var color: CameraIntrinsics
        /// Camera model of the depth images.
        public var depth: CameraIntrinsics
        /// Depth PNG value per metre.
        public var depthScale: Float
        /// Unix time of the first frame, for turning TUM timestamps back into scan time.
        public var startTime: Double?

        /// What a camera file gave: the cameras, and the depth scale and start time if it had them.
        public struct Partial: Equatable, Sendable {
            public var color: CameraIntrinsics
            public var depth: CameraIntrinsics
            public var depthScale: Float?
            public var startTime: Double?
        }
    }

    /// The camera file formats `cameraFile(_:path:)` reads, as named in messages.
    public static let cameraFileFormats = [
        "HeadScan's intrinsics.json (color, depth, depthScale)",
        "Open3D's PinholeCameraIntrinsic JSON (width, height, intrinsic_matrix: 9 numbers, column-major)",
        "a plain object {fx, fy, cx, cy, width, height} with, for a lens with radial distortion, k1 and k2 (OpenCV's)",
    ]

    /// The camera model in a camera file of any of `cameraFileFormats`; the depth camera is
    /// taken to be the colour camera (registered depth) unless the file says otherwise, and
    /// the depth scale and start time are nil unless it gives them.
    public static func cameraFile(_ bytes: [UInt8], path: String) throws(TUMError) -> Intrinsics.Partial {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] else {
            throw .badCameraFile(path: path, reason: "it is not a JSON object")
        }
        if object["color"] != nil || object["depth"] != nil {
            do {
                let full = try JSONDecoder().decode(Intrinsics.self, from: Data(bytes))
                return Intrinsics.Partial(color: full.color, depth: full.depth, depthScale: full.depthScale, startTime: full.startTime)
            } catch {
                throw .badCameraFile(path: path, reason: "it looks like HeadScan's intrinsics.json but \(error)")
            }
        }
        func number(_ key: String) -> Double? { (object[key] as? NSNumber)?.doubleValue }
        func size() throws(TUMError) -> (Int, Int) {
            guard let width = number("width"), let height = number("height"), width >= 1, height >= 1,
                width == width.rounded(), height == height.rounded()
            else { throw .badCameraFile(path: path, reason: "width and height must be positive whole numbers of pixels") }
            return (Int(width), Int(height))
        }
        if let matrix = object["intrinsic_matrix"] {
            guard let values = (matrix as? [Any])?.compactMap({ ($0 as? NSNumber)?.doubleValue }), values.count == 9 else {
                throw .badCameraFile(path: path, reason: "intrinsic_matrix must hold 9 numbers (Open3D's column-major 3x3)")
            }
            // Column-major: [fx, 0, 0, 0, fy, 0, cx, cy, 1].
            let (fx, fy, cx, cy) = (values[0], values[4], values[6], values[7])
            guard values[8] == 1, values[2] == 0, values[5] == 0, fx > 0, fy > 0 else {
                throw .badCameraFile(
                    path: path,
                    reason: "intrinsic_matrix is not a camera matrix in Open3D's column-major order [fx, 0, 0, 0, fy, 0, cx, cy, 1]")
            }
            let (width, height) = try size()
            let k = CameraIntrinsics(fx: fx, fy: fy, cx: cx, cy: cy, width: width, height: height)
            return Intrinsics.Partial(color: k, depth: k, depthScale: nil, startTime: nil)
        }
        if let fx = number("fx"), let fy = number("fy"), let cx = number("cx"), let cy = number("cy") {
            guard fx > 0, fy > 0 else { throw .badCameraFile(path: path, reason: "fx and fy must be positive") }
            let (width, height) = try size()
            let k1 = number("k1") ?? 0, k2 = number("k2") ?? 0
            guard abs(k1) < 1, abs(k2) < 1 else {
                throw .badCameraFile(
                    path: path, reason: "k1 and k2 are OpenCV's radial terms, each between -1 and 1 (a phone's are a few hundredths)")
            }
            let k = CameraIntrinsics(
                fx: fx, fy: fy, cx: cx, cy: cy, width: width, height: height, distortion: RadialDistortion(k1: k1, k2: k2))
            return Intrinsics.Partial(color: k, depth: k, depthScale: number("depth_scale").map(Float.init), startTime: nil)
        }
        throw .badCameraFile(
            path: path, reason: "it matches none of the formats read: \(cameraFileFormats.joined(separator: "; "))")
    }

    /// The camera trajectory's file, when poses are known.
    public static let groundTruthFileName = "groundtruth.txt"

    /// One line of a TUM trajectory: `timestamp tx ty tz qx qy qz qw`, metres.
    static func trajectoryLine(_ stamp: String, _ pose: RigidTransform) -> String {
        let q = pose.rotation.quaternion
        let t = pose.translation
        return ([stamp] + [t.x, t.y, t.z, q.x, q.y, q.z, q.w].map { String(format: "%.7f", $0) }).joined(separator: " ")
    }

    /// Poses of a TUM trajectory (`timestamp tx ty tz qx qy qz qw` per line, `#` comments).
    public static func parseTrajectory(_ text: String) -> [(time: Double, pose: RigidTransform)] {
        text.split(whereSeparator: \.isNewline).compactMap { line in
            let f = line.split(separator: " ", omittingEmptySubsequences: true).compactMap { Double($0) }
            guard !line.hasPrefix("#"), f.count == 8 else { return nil }
            let rotation = RigidAlignment.rotationFromQuaternion(w: f[7], x: f[4], y: f[5], z: f[6])
            return (f[0], RigidTransform(rotation: rotation, translation: SIMD3(f[1], f[2], f[3])))
        }
    }

    /// A file name for a timestamp, as TUM names them: seconds with six decimals.
    static func stamp(_ seconds: Double) -> String {
        String(format: "%.6f", seconds)
    }

    /// Parses a TUM list (`timestamp path` per line, `#` comments) into pairs.
    static func parseList(_ text: String) -> [(Double, String)] {
        text.split(whereSeparator: \.isNewline).compactMap { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard !line.hasPrefix("#"), fields.count >= 2, let t = Double(fields[0]) else { return nil }
            return (t, String(fields[1]))
        }
    }
}

/// Errors of TUM import and export.
public enum TUMError: Error, Equatable, CustomStringConvertible {
    /// The output folder exists and is not empty.
    case outputNotEmpty(String)
    /// A required list or image is missing or unreadable.
    case missing(String)
    /// An image has a layout the format does not allow.
    case badImage(path: String, reason: String)
    /// A camera file could not be read as any of the accepted formats.
    case badCameraFile(path: String, reason: String)
    /// A depth scale that is not a positive number.
    case badDepthScale(Float)

    public var description: String {
        switch self {
        case .outputNotEmpty(let path): "\(path) already exists and is not empty; choose a new folder"
        case .missing(let what): "TUM folder is missing \(what)"
        case .badImage(let path, let reason): "\(path): \(reason)"
        case .badCameraFile(let path, let reason):
            "\(path): cannot read the camera model: \(reason); fix the file or give another with --intrinsics"
        case .badDepthScale(let scale):
            "the depth scale must be a positive number of PNG units per metre (1000 for RealSense millimetres, 5000 for TUM), not \(scale)"
        }
    }
}

// Apps show `localizedDescription`; without this they would show a generic sentence instead
// of the message that says what to do.
extension TUMError: LocalizedError {
    public var errorDescription: String? { description }
}
