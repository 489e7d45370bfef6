import Foundation
import Geometry
import Imaging
import Testing

@testable import Recording

@Suite struct CameraFileTests {
    /// A TUM folder exported from a small recording, with its own intrinsics.json replaced
    /// by `cameraFile` written under `name` (nil: no camera file at all).
    func folder(_ fixture: ScanFixture, cameraFile: String?, name: String = "camera_intrinsic.json") throws -> URL {
        let reader = try ScanReader(url: try fixture.record("s.hscan", frames: 2, codec: .png))
        let folder = fixture.folder.appendingPathComponent("tum")
        _ = try TUMExporter().export(reader, to: folder)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("intrinsics.json"))
        if let cameraFile { try Data(cameraFile.utf8).write(to: folder.appendingPathComponent(name)) }
        return folder
    }

    @Test func open3DIntrinsicsAreImported() throws {
        let fixture = try ScanFixture(width: 32, height: 24)
        defer { fixture.remove() }
        // Open3D's PinholeCameraIntrinsic JSON: column-major [fx, 0, 0, 0, fy, 0, cx, cy, 1].
        let open3D = #"{"width": 32, "height": 24, "intrinsic_matrix": [40.5, 0, 0, 0, 41.25, 0, 15.75, 11.5, 1]}"#
        let tum = try folder(fixture, cameraFile: open3D)
        let out = fixture.folder.appendingPathComponent("o3d.hscan")
        #expect(try TUMImporter().importFolder(tum, to: out, options: .init(colorCodec: .png)) == 2)
        let header = try ScanReader(url: out).header
        let expected = CameraIntrinsics(fx: 40.5, fy: 41.25, cx: 15.75, cy: 11.5, width: 32, height: 24)
        #expect(header.colorIntrinsics == expected)
        #expect(header.depthIntrinsics == expected)
        #expect(try ScanReader(url: out).frame(at: 1).colorIntrinsics == expected)
    }

    @Test func plainObjectAndDepthScaleFlag() throws {
        let fixture = try ScanFixture(width: 32, height: 24)
        defer { fixture.remove() }
        let plain = #"{"fx": 30, "fy": 31, "cx": 16, "cy": 12, "width": 32, "height": 24}"#
        let tum = try folder(fixture, cameraFile: plain, name: "cam.json")
        let tumScale = fixture.folder.appendingPathComponent("tum.hscan")
        let millimetres = fixture.folder.appendingPathComponent("mm.hscan")
        let file = tum.appendingPathComponent("cam.json")
        try TUMImporter().importFolder(tum, to: tumScale, options: .init(colorCodec: .png), cameraFile: file)
        try TUMImporter().importFolder(tum, to: millimetres, options: .init(colorCodec: .png), cameraFile: file, depthScale: 1000)
        let header = try ScanReader(url: millimetres).header
        #expect(header.colorIntrinsics == CameraIntrinsics(fx: 30, fy: 31, cx: 16, cy: 12, width: 32, height: 24))
        // The exported PNGs hold 5000 units per metre; read as millimetres every depth is 5 times larger.
        let a = try ScanReader(url: tumScale).frame(at: 0).depth.pixels
        let b = try ScanReader(url: millimetres).frame(at: 0).depth.pixels
        let pairs = zip(a, b).filter { !$0.0.isNaN }
        #expect(!pairs.isEmpty)
        for (x, y) in pairs { #expect(abs(y - 5 * x) < 1e-4) }
        #expect(throws: TUMError.badDepthScale(0)) {
            try TUMImporter().importFolder(tum, to: fixture.folder.appendingPathComponent("z.hscan"), cameraFile: file, depthScale: 0)
        }
    }

    @Test func unknownCameraFilesNameTheAcceptedFormats() throws {
        #expect(
            throws: TUMError.badCameraFile(
                path: "k.json", reason: "it matches none of the formats read: \(TUMFormat.cameraFileFormats.joined(separator: "; "))")
        ) {
            try TUMFormat.cameraFile(Array(#"{"focal": 500}"#.utf8), path: "k.json")
        }
        let message = TUMError.badCameraFile(path: "k.json", reason: "x").description
        #expect(message.contains("--intrinsics"))
        #expect(throws: TUMError.self) {
            try TUMFormat.cameraFile(Array(#"{"width": 4, "height": 3, "intrinsic_matrix": [1, 2, 3]}"#.utf8), path: "k.json")
        }
        // Row-major by mistake: cx sits where Open3D keeps a zero.
        #expect(throws: TUMError.self) {
            try TUMFormat.cameraFile(
                Array(#"{"width": 4, "height": 3, "intrinsic_matrix": [500, 0, 320, 0, 500, 240, 0, 0, 1]}"#.utf8), path: "k.json")
        }
        #expect(throws: TUMError.self) { try TUMFormat.cameraFile(Array("[1, 2]".utf8), path: "k.json") }
    }
}
