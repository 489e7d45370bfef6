import Foundation
import Geometry

/// What a scan file says about itself, written once at the start of the recording.
public struct ScanHeader: Sendable, Codable, Equatable {
    /// The device that recorded, e.g. "iPhone 13 Pro" or "simulator".
    public var device: String
    /// Version of the app or tool that wrote the file.
    public var appVersion: String
    /// Nominal colour camera model (frames carry their own, which may vary).
    public var colorIntrinsics: CameraIntrinsics
    /// Nominal depth camera model.
    public var depthIntrinsics: CameraIntrinsics
    /// Name of the marker cap layout the infant wore.
    public var capLayoutName: String
    /// The scan and feedback settings in force while recording, by name.
    public var settings: [String: String]
    /// When recording started.
    public var createdAt: Date
    /// Anything else worth keeping with the scan (scenario, seed, notes).
    public var metadata: [String: String]

    /// A header from its parts; settings and metadata default to empty.
    public init(
        device: String, appVersion: String, colorIntrinsics: CameraIntrinsics,
        depthIntrinsics: CameraIntrinsics, capLayoutName: String,
        settings: [String: String] = [:], createdAt: Date = Date(), metadata: [String: String] = [:]
    ) {
        self.device = device
        self.appVersion = appVersion
        self.colorIntrinsics = colorIntrinsics
        self.depthIntrinsics = depthIntrinsics
        self.capLayoutName = capLayoutName
        self.settings = settings
        self.createdAt = createdAt
        self.metadata = metadata
    }
}

/// How a recording stores its colour pictures.
public enum ColorCodec: Sendable, Equatable, Codable, CustomStringConvertible {
    /// Lossy JPEG at a quality of 1...100 (default 92): small, fast, for everyday scans.
    case jpeg(quality: Int)
    /// Lossless PNG: for research recordings that must keep every bit.
    case png

    /// The default: JPEG at quality 92.
    public static let standard = ColorCodec.jpeg(quality: 92)

    public var description: String {
        switch self {
        case .jpeg(let quality): "jpeg(\(quality))"
        case .png: "png"
        }
    }
}
