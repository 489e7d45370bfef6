import Foundation
import Testing

@testable import Recording

struct ScanRoundTripTests {
    @Test func pngColourAndDepthComeBackExactly() throws {
        let fixture = try ScanFixture()
        defer { fixture.remove() }
        let url = try fixture.record("exact.hscan", frames: 5, codec: .png)
        let reader = try ScanReader(url: url)
        #expect(reader.frameCount == 5)
        #expect(reader.header == fixture.header)
        #expect(!reader.indexWasRebuilt)
        #expect(reader.colorCodec() == .png)
        for index in 0..<5 {
            let original = fixture.frame(index)
            let read = try reader.frame(at: index)
            #expect(read.color == original.color)
            #expect(sameBits(read.depth, original.depth))
            #expect(read.depth.pixels.contains { $0.isNaN }, "fixture must exercise NaN holes")
            #expect(read.timestamp == original.timestamp)
            #expect(read.colorIntrinsics == original.colorIntrinsics)
        }
    }

    @Test func jpegColourStaysWithinCodecTolerance() throws {
        let fixture = try ScanFixture()
        defer { fixture.remove() }
        let reader = try ScanReader(url: try fixture.record("jpeg.hscan", frames: 2, codec: .jpeg(quality: 92)))
        #expect(reader.colorCodec() == .jpeg(quality: 92))
        let original = fixture.frame(1)
        let read = try reader.frame(at: 1)
        #expect(sameBits(read.depth, original.depth))
        let meanError =
            zip(read.color.pixels, original.color.pixels).map { abs(Int($0.g) - Int($1.g)) }
            .reduce(0, +) / original.color.count
        #expect(meanError <= 6)
    }

    @Test func sequentialIterationYieldsEveryFrameInOrder() throws {
        let fixture = try ScanFixture()
        defer { fixture.remove() }
        let reader = try ScanReader(url: try fixture.record("seq.hscan", frames: 4))
        let stamps = try reader.frames().map { try $0.get().timestamp }
        #expect(stamps == (0..<4).map(fixture.scene.timestamp(at:)))
        #expect(abs(reader.durationSeconds - 0.1) < 1e-9)
    }

    @Test func existingFileIsNotOverwrittenUnlessAsked() throws {
        let fixture = try ScanFixture()
        defer { fixture.remove() }
        let url = try fixture.record("once.hscan", frames: 1)
        #expect(throws: ScanFileError.self) { try ScanWriter(url: url, header: fixture.header) }
        #expect(try ScanReader(url: url).frameCount == 1)
        _ = try ScanWriter(url: url, header: fixture.header, options: .init(overwrite: true))
    }

    @Test func badFramesAreRefusedWithoutHarmingTheFile() throws {
        let fixture = try ScanFixture()
        defer { fixture.remove() }
        let url = fixture.folder.appendingPathComponent("bad.hscan")
        let writer = try ScanWriter(url: url, header: fixture.header)
        try writer.append(fixture.frame(1))
        var backwards = fixture.frame(0)
        backwards.timestamp = -1
        #expect(throws: ScanFileError.self) { try writer.append(backwards) }
        var empty = fixture.frame(2)
        empty.color = .init(width: 0, height: 0, pixels: [])
        #expect(throws: ScanFileError.self) { try writer.append(empty) }
        try writer.close()
        #expect(throws: ScanFileError.writerClosed) { try writer.append(fixture.frame(3)) }
        #expect(try ScanReader(url: url).frameCount == 1)
    }

    @Test func outOfRangeFrameNamesTheValidRange() throws {
        let fixture = try ScanFixture()
        defer { fixture.remove() }
        let reader = try ScanReader(url: try fixture.record("range.hscan", frames: 2))
        #expect(throws: ScanFileError.frameOutOfRange(index: 7, count: 2)) { try reader.frame(at: 7) }
    }
}

struct ScanHeaderErrorTests {
    @Test func newerVersionGetsAClearMessage() throws {
        let fixture = try ScanFixture()
        defer { fixture.remove() }
        let url = try fixture.record("new.hscan", frames: 1)
        var bytes = try Data(contentsOf: url)
        bytes[8] = 9  // format version 9
        try bytes.write(to: url)
        #expect(throws: ScanFileError.newerVersion(path: url.path, version: 9, supported: 1)) {
            try ScanReader(url: url)
        }
        #expect(ScanFileError.newerVersion(path: "x", version: 9, supported: 1).description.contains("update HeadScan"))
    }

    @Test func otherFilesAreNotMistakenForScans() throws {
        let fixture = try ScanFixture()
        defer { fixture.remove() }
        let url = fixture.folder.appendingPathComponent("notes.txt")
        try Data("hello world, not a scan".utf8).write(to: url)
        #expect(throws: ScanFileError.notAScan(path: url.path)) { try ScanReader(url: url) }
        #expect(throws: ScanFileError.self) { try ScanReader(url: fixture.folder.appendingPathComponent("missing")) }
    }
}
