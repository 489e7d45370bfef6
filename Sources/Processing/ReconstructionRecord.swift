import Foundation
import Geometry
import Markers
import Reconstruction
import ScanLibrary

/// `reconstruction.json`: what a reconstruction found besides the mesh — the marker map and
/// the refined keyframe poses — and which recording it was made from, so landmarks picked
/// later are lifted without reconstructing again while the scan is unchanged.
public struct ReconstructionRecord: LibraryDocument {
    public static let fileName = "reconstruction.json"
    public static let currentVersion = 1
    public static let fieldNames: Set<String> = [
        "scan", "capLayout", "markers", "keyframes", "statistics", "reconstructedAt", "markersAfterSlide",
    ]

    /// The recording a reconstruction was made from: changed size or time, changed scan.
    public struct ScanFingerprint: Sendable, Codable, Equatable {
        public init(bytes: Int, modified: Double, sha256: String? = nil) {
            self.bytes = bytes
            self.modified = modified
            self.sha256 = sha256
        }

        public var bytes: Int
        /// Modification time, seconds since 1970 (a number: dates in JSON lose the fraction).
        public var modified: Double
        /// SHA-256 of the scan file, lowercase hex; absent in records written before it was kept.
        public var sha256: String?

        /// Whether both describe the same file, to the file system's millisecond.
        public func matches(_ other: ScanFingerprint) -> Bool { bytes == other.bytes && abs(modified - other.modified) < 1e-3 }
    }

    /// A keyframe's refined camera pose.
    public struct KeyframePose: Sendable, Codable, Equatable {
        public init(frame: Int, mapFromCamera: [Double]) {
            self.frame = frame
            self.mapFromCamera = mapFromCamera
        }

        public var frame: Int
        /// `mapFromCamera`, 16 numbers, row-major 4×4.
        public var mapFromCamera: [Double]
    }

    public var scan: ScanFingerprint
    /// Name of the cap layout the markers belong to.
    public var capLayout: String
    /// Marker corners in the mesh's frame, metres, by marker ID.
    public var markers: [String: [SIMD3<Double>]]
    public var keyframes: [KeyframePose]
    /// When the cap slid on the head (`statistics.capSlide`): its marker corners where they lay
    /// on the head after the slide, in the mesh's frame, by marker ID; absent otherwise.
    public var markersAfterSlide: [String: [SIMD3<Double>]]?
    public var statistics: ReconstructionStatistics
    public var reconstructedAt: Date

    /// The record of `reconstruction` of a scan with `fingerprint`.
    public init(_ reconstruction: Reconstruction, scan fingerprint: ScanFingerprint, capLayout: String, at date: Date) {
        scan = fingerprint
        self.capLayout = capLayout
        markers = Dictionary(uniqueKeysWithValues: reconstruction.map.corners.map { (String($0.key), $0.value) })
        keyframes = reconstruction.keyframes.map { KeyframePose(frame: $0.frameIndex, mapFromCamera: $0.mapFromCamera.matrixRowMajor) }
        markersAfterSlide = reconstruction.markersAfterSlide.map { map in
            Dictionary(uniqueKeysWithValues: map.corners.map { (String($0.key), $0.value) })
        }
        statistics = reconstruction.statistics
        reconstructedAt = date
    }

    /// A record from its parts.
    public init(
        scan: ScanFingerprint, capLayout: String, markers: [String: [SIMD3<Double>]], keyframes: [KeyframePose],
        statistics: ReconstructionStatistics, reconstructedAt: Date
    ) {
        self.scan = scan
        self.capLayout = capLayout
        self.markers = markers
        self.keyframes = keyframes
        self.statistics = statistics
        self.reconstructedAt = reconstructedAt
    }

    /// The marker map.
    public var map: MarkerMap { Self.map(markers) }

    /// A marker map from corners by ID written as text; IDs that are not numbers are left out.
    static func map(_ markers: [String: [SIMD3<Double>]]) -> MarkerMap {
        MarkerMap(corners: Dictionary(markers.compactMap { key, value in Int(key).map { ($0, value) } }, uniquingKeysWith: { a, _ in a }))
    }

    /// A locator for frames of this reconstruction's scan: keyframes by their poses, other
    /// frames by their markers, on the cap's map where it lay when the frame was taken.
    public func locator(layout: CapLayout) throws -> FrameLocator {
        var locator = try FrameLocator(map: map, keyframes: keyframePoses, layout: layout)
        if let slide = statistics.capSlide, let after = markersAfterSlide {
            locator.slide = (slide.startFrame, slide.endFrame, Self.map(after))
        }
        return locator
    }

    /// Keyframe poses by frame index; a pose without 16 finite numbers is left out.
    public var keyframePoses: [Int: RigidTransform] {
        Dictionary(keyframes.compactMap { pose in Self.transform(pose.mapFromCamera).map { (pose.frame, $0) } }, uniquingKeysWith: { a, _ in a })
    }

    /// The keyframes as the reconstruction saw them through `camera` (the statistics' camera
    /// for the scan's recorded one), in frame order.
    public func keyframeViews(camera: SettledCamera) -> [ReconstructedView] {
        keyframePoses.sorted { $0.key < $1.key }.map { ReconstructedView(frameIndex: $0.key, worldFromCamera: $0.value, camera: camera) }
    }

    /// The rigid transform of a row-major 4×4 matrix; nil unless it has 16 finite numbers.
    static func transform(_ m: [Double]) -> RigidTransform? {
        guard m.count == 16, m.allSatisfy(\.isFinite) else { return nil }
        return RigidTransform(
            rotation: Rotation3(columns: (SIMD3(m[0], m[4], m[8]), SIMD3(m[1], m[5], m[9]), SIMD3(m[2], m[6], m[10]))),
            translation: SIMD3(m[3], m[7], m[11]))
    }

    public func validate() throws(ScanLibraryError) {
        guard keyframes.allSatisfy({ $0.mapFromCamera.count == 16 && $0.mapFromCamera.allSatisfy(\.isFinite) }),
            markers.values.allSatisfy({ $0.count == 4 }), (markersAfterSlide ?? [:]).values.allSatisfy({ $0.count == 4 })
        else {
            throw .invalidDocument(file: Self.fileName, reason: "poses need 16 numbers and markers 4 corners; reconstruct the session again")
        }
    }
}
