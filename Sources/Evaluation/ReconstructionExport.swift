import Foundation
import Geometry
import Reconstruction
import Recording

/// A reconstruction against a simulator truth file: the marker map fitted onto the truth's
/// marker corners, rigidly (to move the mesh into the truth's head frame) and with scale (to
/// judge the map's size).
public struct TruthFileAlignment: Sendable {
    /// Moves the reconstruction's frame into the truth's head frame.
    public var rigid: RigidAlignment.Fit
    /// The same fit allowing a scale, for the map's error alone.
    public var similarity: RigidAlignment.Fit
    /// Markers found in both.
    public var markersCompared: Int

    /// Fits `map` onto the `markers3D` of the simulator truth file at `url`.
    public init(map: MarkerMap, truthFile url: URL) throws {
        let truth = try JSONDecoder().decode(TruthMarkers.self, from: Data(contentsOf: url))
        var source: [SIMD3<Double>] = [], target: [SIMD3<Double>] = []
        for marker in truth.markers3D {
            guard let mapped = map.corners[marker.id], marker.corners.count == 4, marker.corners.allSatisfy({ $0.count == 3 }) else { continue }
            source += mapped
            target += marker.corners.map { SIMD3($0[0], $0[1], $0[2]) }
        }
        similarity = try RigidAlignment.fit(from: source, to: target, withScale: true)
        rigid = try RigidAlignment.fit(from: source, to: target)
        markersCompared = source.count / 4
    }
}

/// The part of a simulator truth file that alignment needs.
private struct TruthMarkers: Decodable {
    struct Marker: Decodable {
        var id: Int
        var corners: [[Double]]
    }
    var markers3D: [Marker]
}

/// What `headscan reconstruct` can write beside the mesh, for comparison with reference tools
/// (Benchmarks/reconstruction/open3d_compare.sh reads the poses and the keyframes' depth).
public enum ReconstructionExport {
    /// The mesh in the format its file name's extension names: .obj, .stl, else PLY.
    public static func meshBytes(_ mesh: TriangleMesh, fileExtension: String, ascii: Bool) -> [UInt8] {
        switch fileExtension.lowercased() {
        case "obj": OBJ.encode(mesh)
        case "stl": STL.encode(mesh)
        default:
            ascii ? PLY.encodeASCII(mesh, comment: "HeadScan reconstruction, metres") : PLY.encode(mesh, comment: "HeadScan reconstruction, metres")
        }
    }

    /// `{"markers": [{"id", "corners": [[x, y, z] ×4]}]}`, sorted keys, metres.
    public static func markersJSON(_ map: MarkerMap) throws -> Data {
        let markers = map.ids.compactMap { id in map.corners[id].map { MapJSON.Marker(id: id, corners: $0.map { [$0.x, $0.y, $0.z] }) } }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(MapJSON(markers: markers))
    }

    /// The depth camera the fusion read the frames with: `recordedDepth` (the recording's, or
    /// a calibration's scaled to the depth picture) with the reconstruction's own correction
    /// (the focal scale it applied, the principal point's shift, the shift scaled from the
    /// colour picture's width `colorWidth`). Poses and this camera belong together: with the
    /// recorded one, a tool fusing the same depth with these poses would place every point off
    /// by the correction.
    public static func fusedDepthCamera(recordedDepth: CameraIntrinsics, colorWidth: Int, settled: SettledCamera) -> CameraIntrinsics {
        settled.correction.applied(to: recordedDepth, colorWidth: colorWidth)
    }

    /// The keyframes' poses (row-major 4×4 world-from-camera) with the depth camera, the volume's
    /// voxel size and truncation, the fused region and the factor the raw depth was scaled by,
    /// moved by `outputFromMap`.
    public static func posesJSON(
        _ result: Reconstruction, depthCamera k: CameraIntrinsics, options: ReconstructionOptions, outputFromMap: RigidTransform
    ) throws -> Data {
        let poses = result.keyframes.map {
            PosesJSON.Pose(frame: $0.frameIndex, worldFromCamera: (outputFromMap * $0.mapFromCamera).matrixRowMajor)
        }
        let centre = outputFromMap.apply(result.region.centre)
        return try JSONEncoder().encode(
            PosesJSON(
                intrinsics: [k.fx, k.fy, k.cx, k.cy, Double(k.width), Double(k.height)], voxelSize: options.voxelSize,
                truncation: options.truncation, regionCentre: [centre.x, centre.y, centre.z], regionRadius: result.region.radius,
                depthScale: result.camera.correction.depthScale, poses: poses))
    }

    /// Each keyframe's raw depth as little-endian Float32, `NNNNN.f32` in `folder`.
    public static func writeKeyframeDepth(_ result: Reconstruction, from reader: ScanReader, to folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for keyframe in result.keyframes {
            let depth = try reader.frame(at: keyframe.frameIndex).depth
            let raw = depth.pixels.withUnsafeBufferPointer { Data(buffer: $0) }
            try raw.write(to: folder.appendingPathComponent(String(format: "%05d.f32", keyframe.frameIndex)))
        }
    }
}

private struct MapJSON: Encodable {
    struct Marker: Encodable {
        var id: Int
        var corners: [[Double]]
    }
    var markers: [Marker]
}

private struct PosesJSON: Encodable {
    struct Pose: Encodable {
        var frame: Int
        var worldFromCamera: [Double]
    }
    var intrinsics: [Double]
    var voxelSize: Double
    var truncation: Double
    var regionCentre: [Double]
    var regionRadius: Double
    /// What the raw depth is multiplied by before fusing (the stickers' printed size set the
    /// scale; 1 when the depth's own scale stood).
    var depthScale: Double
    var poses: [Pose]
}
