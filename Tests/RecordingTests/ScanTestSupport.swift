import Foundation
import Geometry
import Imaging
import Simulation

@testable import Recording

/// Small deterministic recordings in a private temporary folder.
struct ScanFixture {
    let folder: URL
    let scene: SyntheticScene
    let intrinsics: CameraIntrinsics

    init(width: Int = 64, height: Int = 48, seed: UInt64 = 3) throws {
        folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("headscan-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        scene = SyntheticScene(seed: seed, width: width, height: height)
        intrinsics = CameraIntrinsics(
            fx: scene.fx, fy: scene.fy, cx: scene.cx, cy: scene.cy, width: width, height: height)
    }

    var header: ScanHeader {
        ScanHeader(
            device: "test", appVersion: "0", colorIntrinsics: intrinsics, depthIntrinsics: intrinsics,
            capLayoutName: "default-57", settings: ["minSharedMarkers": "2"],
            createdAt: Date(timeIntervalSince1970: 1_700_000_000), metadata: ["case": "fixture"])
    }

    func frame(_ index: Int) -> RGBDFrame {
        let (color, depth) = scene.frame(at: index)
        return RGBDFrame(
            timestamp: scene.timestamp(at: index), color: color, depth: depth,
            colorIntrinsics: intrinsics, depthIntrinsics: intrinsics)
    }

    /// Writes `count` frames; `close` false leaves the file as an interrupted recording would.
    func record(_ name: String, frames count: Int, codec: ColorCodec = .png, close: Bool = true) throws -> URL {
        let url = folder.appendingPathComponent(name)
        let writer = try ScanWriter(url: url, header: header, options: .init(colorCodec: codec))
        for index in 0..<count { try writer.append(frame(index)) }
        if close { try writer.close() }
        return url
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }
}

/// Bitwise equality of depth maps, NaN included.
func sameBits(_ a: DepthImage, _ b: DepthImage) -> Bool {
    a.width == b.width && a.height == b.height && a.pixels.map(\.bitPattern) == b.pixels.map(\.bitPattern)
}
