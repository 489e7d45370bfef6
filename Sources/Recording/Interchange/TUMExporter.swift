import Foundation
import Geometry
import Imaging

/// Writes a recording in the TUM RGB-D layout.
///
/// Colour becomes lossless PNG, depth 16-bit PNG at 5000 per metre (0.2 mm steps; no
/// measurement is 0). Damaged frames are left out and reported. Camera poses, where known (a
/// reconstruction's keyframes), go to `groundtruth.txt` as TUM writes them: timestamp,
/// position, then the orientation as a quaternion x y z w, of the camera in the map's frame.
public struct TUMExporter {
    private let imageCodec: any ImageCodec
    private let files = FileManager.default

    /// An exporter using the given image codec.
    public init(imageCodec: any ImageCodec = ImageCodecs.system) {
        self.imageCodec = imageCodec
    }

    /// Exports every readable frame of `reader` into `folder`; returns the frames skipped.
    /// `poses` (frame index → the camera's pose in the map, `mapFromCamera`) are written to
    /// `groundtruth.txt` for the frames exported; none, no file.
    @discardableResult
    public func export(
        _ reader: ScanReader, to folder: URL, poses: [Int: RigidTransform] = [:], progress: (Int, Int) -> Void = { _, _ in }
    ) throws -> [ScanFileError] {
        try prepare(folder)
        let start = reader.header.createdAt.timeIntervalSince1970
        var lists = (rgb: header("color"), depth: header("depth"), pairs: "")
        var trajectory =
            "# ground truth trajectory\n# file: 'headscan export', poses of the reconstruction's keyframes\n# timestamp tx ty tz qx qy qz qw\n"
        var skipped: [ScanFileError] = []
        for (index, result) in reader.frames().enumerated() {
            defer { progress(index + 1, reader.frameCount) }
            let frame: RGBDFrame
            switch result {
            case .success(let f): frame = f
            case .failure(let error): skipped.append(error); continue
            }
            let name = TUMFormat.stamp(start + frame.timestamp)
            try write(try imageCodec.encodePNG(.rgb8(frame.color.map(\.rgb))), to: folder, "rgb/\(name).png")
            try write(try imageCodec.encodePNG(.gray16(Self.depthPNG(frame.depth))), to: folder, "depth/\(name).png")
            lists.rgb += "\(name) rgb/\(name).png\n"
            lists.depth += "\(name) depth/\(name).png\n"
            lists.pairs += "\(name) rgb/\(name).png \(name) depth/\(name).png\n"
            if let pose = poses[index] { trajectory += TUMFormat.trajectoryLine(name, pose) + "\n" }
        }
        if !poses.isEmpty { try write(Array(trajectory.utf8), to: folder, TUMFormat.groundTruthFileName) }
        try write(Array(lists.rgb.utf8), to: folder, "rgb.txt")
        try write(Array(lists.depth.utf8), to: folder, "depth.txt")
        try write(Array(lists.pairs.utf8), to: folder, "associations.txt")
        let intrinsics = TUMFormat.Intrinsics(
            color: reader.header.colorIntrinsics, depth: reader.header.depthIntrinsics,
            depthScale: TUMFormat.depthScale, startTime: start)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try write(Array(try encoder.encode(intrinsics)), to: folder, "intrinsics.json")
        return skipped
    }

    /// Depth in TUM's 16-bit encoding; values beyond 13.1 m cannot be stored and become 0.
    public static func depthPNG(_ depth: DepthImage) -> Gray16Image {
        depth.map { metres in
            let value = (metres * TUMFormat.depthScale).rounded()
            return value.isFinite && value >= 1 && value <= 65535 ? UInt16(value) : 0
        }
    }

    private func header(_ kind: String) -> String {
        "# \(kind) images\n# file: 'headscan export'\n# timestamp filename\n"
    }

    private func prepare(_ folder: URL) throws {
        if let contents = try? files.contentsOfDirectory(atPath: folder.path), !contents.isEmpty {
            throw TUMError.outputNotEmpty(folder.path)
        }
        for sub in ["rgb", "depth"] {
            try files.createDirectory(at: folder.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
    }

    private func write(_ bytes: [UInt8], to folder: URL, _ name: String) throws {
        try Data(bytes).write(to: folder.appendingPathComponent(name))
    }
}
