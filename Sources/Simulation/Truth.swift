import Cephalometry
import Foundation
import Geometry

/// Where a marker's corners truly appear in one frame (OpenCV order and pixel convention).
public struct MarkerTruth: Sendable, Codable, Equatable {
    /// Marker ID.
    public var id: Int
    /// Projected corners, pixels: top-left, top-right, bottom-right, bottom-left as printed.
    public var corners: [[Double]]
    /// Mean projected side length, pixels.
    public var sidePixels: Double
    /// Angle between the marker's normal and the line of sight, degrees (0 = head-on).
    public var viewAngleDegrees: Double
}

extension MarkerTruth {
    /// Where `sticker` appears when it faces the camera and lies wholly inside the picture;
    /// nil otherwise. Hiding behind other parts of the scene is the caller's to check.
    init?(_ sticker: MarkerSticker, cameraFromMesh: RigidTransform, intrinsics k: CameraIntrinsics) {
        let centre = cameraFromMesh.apply(sticker.centre)
        let normal = cameraFromMesh.applyToVector(sticker.normal)
        guard dot(normal, centre) < 0 else { return nil }
        let pixels = sticker.corners.map(cameraFromMesh.apply).compactMap(k.project)
        guard pixels.count == 4,
            pixels.allSatisfy({ $0.x >= -0.5 && $0.y >= -0.5 && $0.x <= Double(k.width) - 0.5 && $0.y <= Double(k.height) - 0.5 }),
            k.project(centre) != nil
        else { return nil }
        let side = (0..<4).map { Geometry.distance(pixels[$0], pixels[($0 + 1) % 4]) }.reduce(0, +) / 4
        let angle = acos(min(1, -dot(normal, centre) / length(centre))) * 180 / Double.pi
        self.init(id: sticker.id, corners: pixels.map { [$0.x, $0.y] }, sidePixels: side, viewAngleDegrees: angle)
    }
}

/// The exact state of one simulated frame.
public struct FrameTruth: Sendable, Codable, Equatable {
    /// Frame number.
    public var index: Int
    /// Seconds since the scan started.
    public var timestamp: Double
    /// Camera pose in the mesh (head) frame: 16 numbers, row-major 4x4.
    public var meshFromCamera: [Double]
    /// Markers visible in the frame: in front of the camera, facing it, inside the picture
    /// and not hidden behind anything.
    public var markers: [MarkerTruth]
    /// How far the cap has turned on the head since the scan started, degrees; absent when
    /// the cap holds still.
    public var capTurnDegrees: Double?

    public init(index: Int, timestamp: Double, meshFromCamera: [Double], markers: [MarkerTruth], capTurnDegrees: Double? = nil) {
        self.index = index
        self.timestamp = timestamp
        self.meshFromCamera = meshFromCamera
        self.markers = markers
        self.capTurnDegrees = capTurnDegrees
    }
}

/// A marker's corners in the head frame.
public struct MarkerCorners3D: Sendable, Codable, Equatable {
    /// Marker ID.
    public var id: Int
    /// Head region it sits on.
    public var region: String
    /// Corners as [x, y, z] metres in the mesh frame, OpenCV order.
    public var corners: [[Double]]
}

/// Everything known about a simulated scan, written next to it as JSON.
public struct ScanTruth: Sendable, Codable {
    /// The head mesh file (PLY, metres, head frame), relative to the truth file.
    public var meshFile: String
    /// Scenario name.
    public var scenario: String
    /// Seed that reproduces the scan.
    public var seed: UInt64
    /// The head's parameters.
    public var head: HeadParameters
    /// Nasion, nose tip and tragions in the mesh frame.
    public var landmarks: HeadLandmarks
    /// Markers on the cap, in the mesh frame.
    public var markers3D: [MarkerCorners3D]
    /// IDs of markers that fell off.
    public var droppedMarkers: [Int]
    /// The head's true measurements.
    public var measurements: TrueHeadMeasures
    /// Per-frame truth.
    public var frames: [FrameTruth]
}
