import Foundation
import Geometry
import Imaging
import Testing

@testable import Recording

/// A Stray Scanner folder written the way the app writes it (`docs/import-formats.md`): a
/// 3x3 camera matrix for the 1920x1440 video, odometry with a header, 16-bit millimetre depth
/// at 256x192 (here 64x48, the same quarter-of-a-quarter ratio), 8-bit confidence, and colour
/// frames extracted from the video (here at 480x360).
struct StrayScannerFolder {
    let folder: URL
    let codec = ImageCodecs.system

    init(frames: Int = 3, confidence: Bool = true) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("stray-\(UUID().uuidString)")
        for sub in ["rgb", "depth"] + (confidence ? ["confidence"] : []) {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        try Data("1594.88,0.0,957.43\n0.0,1594.88,721.59\n0.0,0.0,1.0\n".utf8).write(to: folder.appendingPathComponent("camera_matrix.csv"))
        var odometry = "timestamp, frame, x, y, z, qx, qy, qz, qw\n"
        for f in 0..<frames { odometry += "\(1000.5 + Double(f) / 60), \(String(format: "%06d", f)), 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0\n" }
        try Data(odometry.utf8).write(to: folder.appendingPathComponent("odometry.csv"))
        for f in 0..<frames {
            let name = String(format: "%06d.png", f)
            // ffmpeg's default numbering starts at 1; the order is what counts.
            let colour = RGBAImage(width: 480, height: 360, repeating: RGBA8(r: UInt8(10 * f), g: 100, b: 200))
            try Data(codec.encodePNG(.rgba8(colour))).write(to: folder.appendingPathComponent(String(format: "rgb/%06d.png", f + 1)))
            var depth = Gray16Image(width: 64, height: 48, repeating: UInt16(400 + f))
            depth[0, 0] = 0
            try Data(codec.encodePNG(.gray16(depth))).write(to: folder.appendingPathComponent("depth/" + name))
            if confidence {
                var levels = GrayImage(width: 64, height: 48, repeating: 2)
                levels[1, 0] = 0
                levels[2, 0] = 1
                try Data(codec.encodePNG(.gray8(levels))).write(to: folder.appendingPathComponent("confidence/" + name))
            }
        }
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }
}

struct StrayScannerImportTests {
    @Test func framesDepthAndTheScaledCameraComeAcross() throws {
        let stray = try StrayScannerFolder()
        defer { stray.remove() }
        let out = stray.folder.appendingPathComponent("out.hscan")
        #expect(try StrayScannerImporter().importFolder(stray.folder, to: out, options: .init(colorCodec: .png)) == 3)
        let reader = try ScanReader(url: out)
        let colour = reader.header.colorIntrinsics, depth = reader.header.depthIntrinsics
        // The matrix belongs to 1920x1440; the frames are a quarter of that, the depth a 30th.
        #expect(colour.width == 480 && colour.height == 360)
        #expect(abs(colour.fx - 1594.88 / 4) < 1e-9 && abs(colour.cx - ((957.43 + 0.5) / 4 - 0.5)) < 1e-9)
        #expect(depth.width == 64 && depth.height == 48 && abs(depth.fx - 1594.88 / 30) < 1e-9)
        for index in 0..<3 {
            let frame = try reader.frame(at: index)
            #expect(abs(frame.timestamp - Double(index) / 60) < 1e-6)
            #expect(frame.color.pixels[0].r == UInt8(10 * index))
            #expect(abs(frame.depth[5, 5] - Float(400 + index) / 1000) < 1e-6)
            // No depth (0), low confidence (0) dropped; middle confidence (1) kept by default.
            #expect(frame.depth[0, 0].isNaN && frame.depth[1, 0].isNaN && !frame.depth[2, 0].isNaN)
        }
        let strict = stray.folder.appendingPathComponent("strict.hscan")
        try StrayScannerImporter().importFolder(stray.folder, to: strict, minimumConfidence: 2)
        #expect(try ScanReader(url: strict).frame(at: 0).depth[2, 0].isNaN)
    }

    @Test func aBrokenRecordingLeavesNoFileAndSaysWhatToDo() throws {
        let stray = try StrayScannerFolder()
        defer { stray.remove() }
        let out = stray.folder.appendingPathComponent("out.hscan")
        try Data([1, 2, 3]).write(to: stray.folder.appendingPathComponent("depth/000002.png"))
        #expect(throws: (any Error).self) { try StrayScannerImporter().importFolder(stray.folder, to: out) }
        let left = try FileManager.default.contentsOfDirectory(atPath: stray.folder.path).filter { $0.contains("hscan") }
        #expect(left.isEmpty, "left behind: \(left)")

        try FileManager.default.removeItem(at: stray.folder.appendingPathComponent("rgb"))
        try Data().write(to: stray.folder.appendingPathComponent("rgb.mp4"))
        #expect(throws: StrayScannerError.videoOnly) { try StrayScannerImporter().importFolder(stray.folder, to: out) }
        #expect(StrayScannerError.videoOnly.description.contains("ffmpeg -i rgb.mp4"))
    }

    @Test func theCameraMatrixMustFitTheFrames() throws {
        let stray = try StrayScannerFolder(frames: 1, confidence: false)
        defer { stray.remove() }
        let out = stray.folder.appendingPathComponent("out.hscan")
        // Said to belong to 640x480 frames, the centre (957, 722) would lie outside them.
        #expect { try StrayScannerImporter().importFolder(stray.folder, to: out, referenceSize: (640, 480)) } throws: { error in
            (error as? StrayScannerError)?.description.contains("--reference-size") == true
        }
        #expect(try StrayScannerImporter().importFolder(stray.folder, to: out) == 1)
    }

    /// Seeded mutations of both CSV files: every outcome is a scan or a typed error, never a trap.
    @Test func mutatedCSVFilesAreReadTotally() throws {
        let stray = try StrayScannerFolder(frames: 1, confidence: false)
        defer { stray.remove() }
        let out = stray.folder.appendingPathComponent("out.hscan")
        var rng = Xoshiro256(seed: 24)
        for name in ["camera_matrix.csv", "odometry.csv"] {
            let url = stray.folder.appendingPathComponent(name)
            let original = try [UInt8](Data(contentsOf: url))
            for _ in 0..<150 {
                var bytes = original
                for _ in 0..<(1 + Int(rng.next() % 4)) {
                    let at = Int(rng.next() % UInt64(bytes.count))
                    switch rng.next() % 3 {
                    case 0: bytes[at] = UInt8(truncatingIfNeeded: rng.next())
                    case 1: bytes.remove(at: at)
                    default: bytes.insert(Array(",\n-.0e9".utf8)[Int(rng.next() % 7)], at: at)
                    }
                    if bytes.isEmpty { bytes = [0x2C] }
                }
                try Data(bytes).write(to: url)
                do { try StrayScannerImporter().importFolder(stray.folder, to: out, options: .init(overwrite: true)) } catch is StrayScannerError {}
            }
            try Data(original).write(to: url)
        }
    }
}
