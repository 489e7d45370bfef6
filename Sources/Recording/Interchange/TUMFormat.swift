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

    public var description: String {
        switch self {
        case .outputNotEmpty(let path): "\(path) already exists and is not empty; choose a new folder"
        case .missing(let what): "TUM folder is missing \(what)"
        case .badImage(let path, let reason): "\(path): \(reason)"
        }
    }
}

// Apps show `localizedDescription`; without this they would show a generic sentence instead
// of the message that says what to do.
extension TUMError: LocalizedError {
    public var errorDescription: String? { description }
}
