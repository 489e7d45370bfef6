import Foundation
import Geometry
import Markers

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
    /// The cap layout itself, so the scan stays readable when the layout file changes or is
    /// gone; absent in files written before layouts were data (see `layout()`).
    public var capLayout: CapLayout?
    /// The scan and feedback settings in force while recording, by name.
    public var settings: [String: String]
    /// When recording started.
    public var createdAt: Date
    /// Anything else worth keeping with the scan (scenario, seed, notes).
    public var metadata: [String: String]
    /// The camera's lens distortion as it reported it; absent for simulated scans, imports
    /// without it and files written before it was kept.
    public var lensDistortion: LensDistortionTable?
    /// Whether the depth is metric; absent where unknown.
    public var depthAccuracy: DepthAccuracy?

    /// A header from its parts; settings and metadata default to empty.
    public init(
        device: String, appVersion: String, colorIntrinsics: CameraIntrinsics,
        depthIntrinsics: CameraIntrinsics, capLayoutName: String, capLayout: CapLayout? = nil,
        settings: [String: String] = [:], createdAt: Date = Date(), metadata: [String: String] = [:]
    ) {
        self.capLayout = capLayout
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

extension ScanHeader {
    /// A header for a scan made with `layout`, which it keeps.
    public init(
        device: String, appVersion: String, colorIntrinsics: CameraIntrinsics, depthIntrinsics: CameraIntrinsics,
        layout: CapLayout, settings: [String: String] = [:], createdAt: Date = Date(), metadata: [String: String] = [:]
    ) {
        self.init(
            device: device, appVersion: appVersion, colorIntrinsics: colorIntrinsics, depthIntrinsics: depthIntrinsics,
            capLayoutName: layout.name, capLayout: layout, settings: settings, createdAt: createdAt, metadata: metadata)
    }

    /// Whether the scan guide followed the head's surface instead of the cap's markers while
    /// recording (the guide's `withoutMarkers` setting, kept with the other settings): such a
    /// scan has no stickers to place it by and is processed without markers.
    public var guidedWithoutMarkers: Bool { settings["withoutMarkers"] == "true" }

    /// The cap layout the scan was recorded with: the one the header keeps, or for older
    /// files the built-in layout its name resolves to.
    public func layout() throws(MarkerError) -> CapLayout {
        if let capLayout { return capLayout }
        return try CapLayout.named(capLayoutName)
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
