import Foundation
import Geometry
import Imaging
import Testing

@testable import Recording

struct TUMTests {
    @Test func exportThenImportKeepsFramesWithinTUMResolution() throws {
        let fixture = try ScanFixture(width: 32, height: 24)
        defer { fixture.remove() }
        let reader = try ScanReader(url: try fixture.record("s.hscan", frames: 3, codec: .png))
        let folder = fixture.folder.appendingPathComponent("tum")
        let skipped = try TUMExporter().export(reader, to: folder)
        #expect(skipped.isEmpty)
        for name in ["rgb.txt", "depth.txt", "associations.txt", "intrinsics.json"] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path))
        }
        let lines = try String(contentsOf: folder.appendingPathComponent("associations.txt"), encoding: .utf8)
            .split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0].split(separator: " ")[1].hasPrefix("rgb/1700000000.000000"))

        let back = fixture.folder.appendingPathComponent("back.hscan")
        #expect(try TUMImporter().importFolder(folder, to: back, options: .init(colorCodec: .png)) == 3)
        let imported = try ScanReader(url: back)
        #expect(imported.header.colorIntrinsics == fixture.intrinsics)
        for index in 0..<3 {
            let a = fixture.frame(index), b = try imported.frame(at: index)
            #expect(abs(b.timestamp - a.timestamp) < 1e-5)
            #expect(b.color.pixels.map(\.rgb) == a.color.pixels.map(\.rgb))
            for (x, y) in zip(a.depth.pixels, b.depth.pixels) {
                #expect(x.isNaN == y.isNaN)
                if !x.isNaN { #expect(abs(x - y) <= 0.5 / TUMFormat.depthScale + 1e-6) }
            }
        }
    }

    @Test func knownPosesBecomeTheGroundTruthTrajectory() throws {
        let fixture = try ScanFixture(width: 16, height: 12)
        defer { fixture.remove() }
        let reader = try ScanReader(url: try fixture.record("s.hscan", frames: 4))
        let poses: [Int: RigidTransform] = [
            0: .identity,
            2: RigidTransform(rotation: Rotation3(axis: SIMD3(0.2, 1, -0.3), angle: 2.2), translation: SIMD3(0.1, -0.25, 0.31)),
            9: RigidTransform(translation: SIMD3(1, 1, 1)),  // no such frame: left out
        ]
        let folder = fixture.folder.appendingPathComponent("tum")
        try TUMExporter().export(reader, to: folder, poses: poses)
        let text = try String(contentsOf: folder.appendingPathComponent(TUMFormat.groundTruthFileName), encoding: .utf8)
        let trajectory = TUMFormat.parseTrajectory(text)
        #expect(trajectory.count == 2)
        let start = reader.header.createdAt.timeIntervalSince1970
        for ((time, pose), index) in zip(trajectory, [0, 2]) {
            #expect(abs(time - (start + fixture.frame(index).timestamp)) < 1e-6)
            #expect(length(pose.translation - poses[index]!.translation) < 1e-6)
            #expect((pose.rotation.inverse * poses[index]!.rotation).angle < 1e-6)
        }
        // Without poses there is no trajectory file.
        let plain = fixture.folder.appendingPathComponent("plain")
        try TUMExporter().export(reader, to: plain)
        #expect(!FileManager.default.fileExists(atPath: plain.appendingPathComponent(TUMFormat.groundTruthFileName).path))
    }

    @Test func depthOutsideTheSixteenBitRangeBecomesNoMeasurement() {
        let depth = DepthImage(width: 4, height: 1, pixels: [.nan, 0.5, 20, -1])
        #expect(TUMExporter.depthPNG(depth).pixels == [0, 2500, 0, 0])
    }

    @Test func exportRefusesAFolderThatHoldsFiles() throws {
        let fixture = try ScanFixture(width: 16, height: 12)
        defer { fixture.remove() }
        let reader = try ScanReader(url: try fixture.record("s.hscan", frames: 1))
        #expect(throws: TUMError.outputNotEmpty(fixture.folder.path)) {
            try TUMExporter().export(reader, to: fixture.folder)
        }
    }

    @Test func importWithoutListsSaysWhatIsMissing() throws {
        let fixture = try ScanFixture()
        defer { fixture.remove() }
        #expect(throws: TUMError.self) {
            try TUMImporter().importFolder(fixture.folder, to: fixture.folder.appendingPathComponent("x.hscan"))
        }
    }

    @Test func importPairsByNearestTimestampWithoutAssociations() throws {
        let fixture = try ScanFixture(width: 16, height: 12)
        defer { fixture.remove() }
        let reader = try ScanReader(url: try fixture.record("s.hscan", frames: 2))
        let folder = fixture.folder.appendingPathComponent("tum")
        try TUMExporter().export(reader, to: folder)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("associations.txt"))
        let out = fixture.folder.appendingPathComponent("n.hscan")
        #expect(try TUMImporter().importFolder(folder, to: out) == 2)
    }

    @Test func aFailedImportLeavesNothingAndAnExistingScanIsKept() throws {
        let fixture = try ScanFixture(width: 16, height: 12)
        defer { fixture.remove() }
        let reader = try ScanReader(url: try fixture.record("s.hscan", frames: 3))
        let folder = fixture.folder.appendingPathComponent("tum")
        try TUMExporter().export(reader, to: folder)
        let out = fixture.folder.appendingPathComponent("n.hscan")
        #expect(try TUMImporter().importFolder(folder, to: out) == 3)
        let before = try Data(contentsOf: out)
        // An existing scan is refused unless overwriting is asked for.
        #expect(throws: ScanFileError.self) { try TUMImporter().importFolder(folder, to: out) }
        // The last depth image is broken: the import fails after two frames were written.
        let last = try #require(
            try String(contentsOf: folder.appendingPathComponent("depth.txt"), encoding: .utf8)
                .split(separator: "\n").last { !$0.hasPrefix("#") }?.split(separator: " ").last)
        try Data([1, 2, 3]).write(to: folder.appendingPathComponent(String(last)))
        #expect(throws: (any Error).self) { try TUMImporter().importFolder(folder, to: out, options: .init(overwrite: true)) }
        #expect(try Data(contentsOf: out) == before)
        let fresh = fixture.folder.appendingPathComponent("fresh.hscan")
        #expect(throws: (any Error).self) { try TUMImporter().importFolder(folder, to: fresh) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.folder.path).filter { $0.contains("fresh") }.isEmpty)
    }
}
