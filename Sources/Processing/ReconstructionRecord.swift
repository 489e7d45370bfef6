import Cephalometry
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
        "scan", "capLayout", "markers", "keyframes", "statistics", "reconstructedAt", "markersAfterSlide", "withoutMarkers",
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
    /// A scan reconstructed without markers: how its frames were placed and how the head lies
    /// in the mesh's frame; absent for a scan placed by its stickers.
    public var withoutMarkers: PlacedWithoutMarkers?

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

    /// The record of a reconstruction without markers: no marker map, every placed frame a
    /// keyframe.
    public init(
        _ reconstruction: MarkerlessReconstruction, print: PrintAlignment?, scan fingerprint: ScanFingerprint, capLayout: String, at date: Date
    ) {
        scan = fingerprint
        self.capLayout = capLayout
        markers = [:]
        keyframes = reconstruction.poses.map { KeyframePose(frame: $0.frameIndex, mapFromCamera: $0.worldFromCamera.matrixRowMajor) }
        var statistics = ReconstructionStatistics()
        statistics.framesExamined = reconstruction.framesExamined
        statistics.framesUsed = reconstruction.poses.count
        statistics.framesRejected = reconstruction.framesLost
        statistics.keyframes = reconstruction.poses.count
        statistics.vertices = reconstruction.mesh.vertices.count
        statistics.triangles = reconstruction.mesh.faces.count
        self.statistics = statistics
        reconstructedAt = date
        withoutMarkers = PlacedWithoutMarkers(
            framesExamined: reconstruction.framesExamined, framesPlaced: reconstruction.poses.count, framesLost: reconstruction.framesLost,
            framesFused: reconstruction.framesFused, printSeen: reconstruction.matchedColour,
            headFromMesh: print?.headFromMesh.matrixRowMajor, capRim: print?.capRim, printAgreement: print?.agreement,
            printRunnerUp: print?.runnerUp)
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
        if withoutMarkers != nil { locator.interpolationGap = PlacedWithoutMarkers.interpolationGap }
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
            markers.values.allSatisfy({ $0.count == 4 }), (markersAfterSlide ?? [:]).values.allSatisfy({ $0.count == 4 }),
            withoutMarkers?.isValid ?? true
        else {
            throw .invalidDocument(file: Self.fileName, reason: "poses need 16 numbers and markers 4 corners; reconstruct the session again")
        }
    }
}

/// How a scan without markers was placed: its frames on the head's surface (and the cap's
/// print), and, where the cap showed its print, how the head lies in the mesh's frame.
public struct PlacedWithoutMarkers: Sendable, Codable, Equatable {
    public var framesExamined: Int
    public var framesPlaced: Int
    /// Frames read but not placed on the surface.
    public var framesLost: Int
    public var framesFused: Int
    /// Whether the cap showed a print, so that colour placed the views as well as depth.
    public var printSeen: Bool
    /// The head frame from the mesh's, read from the print: 16 numbers, row-major 4×4;
    /// absent where no print was read.
    public var headFromMesh: [Double]?
    /// The cap's lower edge in the head frame, metres (z), as the print has it.
    public var capRim: Double?
    /// The share of the print's colours that agree where it was placed, and at the next best place.
    public var printAgreement: Double?
    public var printRunnerUp: Double?
    /// The colour camera the frames were read with when it was checked with a printed board
    /// (`headscan calibrate --out`); absent: the phone's recorded (factory) camera. Without
    /// stickers nothing in the scan corrects a focal length that is off, and a few per cent
    /// off distorts the head's shape, not only its size.
    public var checkedCamera: CameraIntrinsics?

    public init(
        framesExamined: Int, framesPlaced: Int, framesLost: Int, framesFused: Int, printSeen: Bool, headFromMesh: [Double]?, capRim: Double?,
        printAgreement: Double?, printRunnerUp: Double?
    ) {
        self.framesExamined = framesExamined
        self.framesPlaced = framesPlaced
        self.framesLost = framesLost
        self.framesFused = framesFused
        self.printSeen = printSeen
        self.headFromMesh = headFromMesh
        self.capRim = capRim
        self.printAgreement = printAgreement
        self.printRunnerUp = printRunnerUp
    }

    /// A frame not placed takes the pose between placed frames this many apart at most: twice
    /// the frames processing steps by (0.2 s at 30 frames a second), so one lost frame between
    /// two placed ones still gives its neighbours a pose.
    public static let interpolationGap = 2 * ReconstructionOptions.headScanStride

    /// How the head lies, when the print told it.
    public var orientation: HeadOrientation? {
        guard let matrix = headFromMesh, let transform = ReconstructionRecord.transform(matrix), let capRim, capRim.isFinite else { return nil }
        return HeadOrientation(headFromMesh: transform, capRim: capRim)
    }

    var isValid: Bool {
        let counts = [framesExamined, framesPlaced, framesLost, framesFused]
        let shares = [printAgreement, printRunnerUp].compactMap { $0 }
        let cameraValid = checkedCamera.map { [$0.fx, $0.fy, $0.cx, $0.cy].allSatisfy(\.isFinite) && $0.fx > 0 && $0.fy > 0 } ?? true
        return cameraValid && counts.allSatisfy { $0 >= 0 } && framesPlaced <= framesExamined
            && (headFromMesh.map { $0.count == 16 && $0.allSatisfy(\.isFinite) } ?? true) && (capRim?.isFinite ?? true)
            && shares.allSatisfy { (0...1).contains($0) }
    }
}
