import Foundation
import Geometry
import Imaging

/// Reads a TUM RGB-D folder into a scan file.
///
/// Pairs come from `associations.txt`, or, when it is missing, by matching each colour
/// image with the depth image closest in time (within 20 ms, as TUM's associate.py does).
public struct TUMImporter {
    /// The camera model assumed when the folder has no `intrinsics.json`: TUM's default
    /// for 640x480 (fx = fy = 525, centre 319.5, 239.5).
    public static let defaultIntrinsics = CameraIntrinsics(fx: 525, fy: 525, cx: 319.5, cy: 239.5, width: 640, height: 480)

    private let imageCodec: any ImageCodec

    /// An importer using the given image codec.
    public init(imageCodec: any ImageCodec = ImageCodecs.system) {
        self.imageCodec = imageCodec
    }

    /// Camera files looked for in the folder when none is given: HeadScan's own, then the
    /// name Open3D's reconstruction system uses.
    public static let cameraFileNames = ["intrinsics.json", "camera_intrinsic.json"]

    /// Writes every pair of `folder` into a new scan at `output`; returns the frame count.
    /// The camera model comes from `cameraFile`, else from the first of `cameraFileNames` in
    /// the folder, else TUM's default; depth PNG units per metre from `depthScale`, else the
    /// camera file, else TUM's 5000.
    @discardableResult
    public func importFolder(
        _ folder: URL, to output: URL, options: ScanWriter.Options = .init(), cameraFile: URL? = nil,
        depthScale: Float? = nil, floatDepthScale: Float = 1, progress: (Int, Int) -> Void = { _, _ in }
    ) throws -> Int {
        if let depthScale, !(depthScale > 0) || !depthScale.isFinite { throw TUMError.badDepthScale(depthScale) }
        guard floatDepthScale > 0, floatDepthScale.isFinite else { throw TUMError.badDepthScale(floatDepthScale) }
        let pairs = try associations(in: folder)
        guard let first = pairs.first else { throw TUMError.missing("image pairs (the lists are empty)") }
        let intrinsics = try readIntrinsics(folder, file: cameraFile)
        let start = intrinsics?.startTime ?? first.time
        let scale = depthScale ?? intrinsics?.depthScale ?? TUMFormat.depthScale
        let header = ScanHeader(
            device: "TUM import", appVersion: HeadScanVersion.current,
            colorIntrinsics: intrinsics?.color ?? Self.defaultIntrinsics,
            depthIntrinsics: intrinsics?.depth ?? Self.defaultIntrinsics, capLayoutName: "unknown",
            createdAt: Date(timeIntervalSince1970: start), metadata: ["source": folder.lastPathComponent])
        let writing = try options.forAtomicWrite(to: output)
        return try writeAtomically(output) { partial in
            let writer = try ScanWriter(url: partial, header: header, options: writing, imageCodec: imageCodec)
            for (index, pair) in pairs.enumerated() {
                let color = try imageCodec.decodeAny(try read(folder, pair.rgb))
                let depth = try depthImage(try read(folder, pair.depth), path: pair.depth, scale: scale, floatScale: floatDepthScale)
                try writer.append(
                    RGBDFrame(
                        timestamp: pair.time - start, color: color, depth: depth,
                        colorIntrinsics: header.colorIntrinsics, depthIntrinsics: header.depthIntrinsics))
                progress(index + 1, pairs.count)
            }
            try writer.close()
            return pairs.count
        }
    }

    private func associations(in folder: URL) throws -> [(time: Double, rgb: String, depth: String)] {
        if let text = try? String(contentsOf: folder.appendingPathComponent("associations.txt"), encoding: .utf8) {
            return text.split(whereSeparator: \.isNewline).compactMap { line in
                let f = line.split(separator: " ", omittingEmptySubsequences: true)
                guard !line.hasPrefix("#"), f.count >= 4, let t = Double(f[0]) else { return nil }
                return (t, String(f[1]), String(f[3]))
            }
        }
        guard let rgb = try? String(contentsOf: folder.appendingPathComponent("rgb.txt"), encoding: .utf8),
            let depth = try? String(contentsOf: folder.appendingPathComponent("depth.txt"), encoding: .utf8)
        else { throw TUMError.missing("associations.txt, or rgb.txt and depth.txt") }
        let depths = TUMFormat.parseList(depth)
        return TUMFormat.parseList(rgb).compactMap { time, path in
            guard let match = depths.min(by: { abs($0.0 - time) < abs($1.0 - time) }),
                abs(match.0 - time) <= 0.02
            else { return nil }
            return (time, path, match.1)
        }
    }

    private func readIntrinsics(_ folder: URL, file: URL?) throws -> TUMFormat.Intrinsics.Partial? {
        if let file {
            guard let data = try? Data(contentsOf: file) else { throw TUMError.missing("the camera file \(file.path)") }
            return try TUMFormat.cameraFile(Array(data), path: file.path)
        }
        for name in Self.cameraFileNames {
            if let data = try? Data(contentsOf: folder.appendingPathComponent(name)) {
                return try TUMFormat.cameraFile(Array(data), path: name)
            }
        }
        return nil
    }

    private func read(_ folder: URL, _ path: String) throws -> [UInt8] {
        // Lists name files relative to the folder; refuse paths that climb out of it.
        guard !path.hasPrefix("/"), !path.split(separator: "/").contains("..") else {
            throw TUMError.badImage(path: path, reason: "path leaves the dataset folder")
        }
        guard let data = try? Data(contentsOf: folder.appendingPathComponent(path)) else {
            throw TUMError.missing(path)
        }
        return Array(data)
    }

    /// Depth from a 16-bit PNG (`scale` units per metre) or a one-channel PFM of 32-bit floats
    /// (`floatScale` units per metre); zero, negative and non-finite values are missing.
    private func depthImage(_ bytes: [UInt8], path: String, scale: Float, floatScale: Float) throws -> DepthImage {
        if bytes.starts(with: Array("Pf".utf8)) || bytes.starts(with: Array("PF".utf8)) {
            let (width, height, values) = try PortableFloatMap.decodeGray(bytes, path: path)
            return DepthImage(width: width, height: height, pixels: values.map { $0.isFinite && $0 > 0 ? $0 / floatScale : .nan })
        }
        guard case .gray16(let raw) = try imageCodec.decodePNG(bytes) else {
            throw TUMError.badImage(path: path, reason: "depth must be a 16-bit grayscale PNG or a one-channel float PFM")
        }
        return raw.map { $0 == 0 ? .nan : Float($0) / scale }
    }
}
