import Foundation
import Geometry
import Testing

@testable import Recording

/// Interrupted recordings and damaged files: what the reader can still deliver.
struct ScanRecoveryTests {
    /// Offsets where each frame record starts, and where the index starts, in a closed file.
    private func layout(_ url: URL) throws -> (frames: [Int], index: Int, size: Int) {
        let bytes = [UInt8](try Data(contentsOf: url))
        let indexOffset = bytes.suffix(16).withUnsafeBytes { Int($0.loadUnaligned(as: UInt64.self)) }
        var starts: [Int] = []
        var i = 0
        while i + 4 <= indexOffset {
            let word = bytes[i..<i + 4].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
            if word == ScanFormat.recordMagic { starts.append(i) }
            i += 1
        }
        return (starts, indexOffset, bytes.count)
    }

    @Test func cutAtAnyOffsetYieldsExactlyTheCompleteFrames() throws {
        let fixture = try ScanFixture(width: 24, height: 16)
        defer { fixture.remove() }
        let url = try fixture.record("full.hscan", frames: 100)
        let full = try Data(contentsOf: url)
        let (starts, indexOffset, size) = try layout(url)
        #expect(starts.count == 100)
        let ends = starts.dropFirst() + [indexOffset]
        let headerEnd = starts[0]
        // Cuts inside frame records, on record boundaries, inside the index and the trailer.
        var cuts = Set<Int>(stride(from: headerEnd, to: size, by: 997))
        cuts.formUnion(starts.flatMap { [$0, $0 + 1, $0 + 23, $0 + 24, $0 + 100] })
        cuts.formUnion([indexOffset + 5, indexOffset + 30, size - 16, size - 3, size - 1])
        let cut = fixture.folder.appendingPathComponent("cut.hscan")
        for offset in cuts.sorted() where offset <= size {
            try full.prefix(offset).write(to: cut)
            let reader = try ScanReader(url: cut)
            let expected = ends.filter { $0 <= offset }.count
            #expect(reader.frameCount == expected, "cut at \(offset)")
            #expect(reader.damagedRecords.isEmpty, "cut at \(offset)")
            if expected > 0 {
                let last = try reader.frame(at: expected - 1)
                #expect(sameBits(last.depth, fixture.frame(expected - 1).depth))
            }
        }
    }

    @Test func unclosedRecordingRebuildsItsIndex() throws {
        let fixture = try ScanFixture()
        defer { fixture.remove() }
        let url = try fixture.record("open.hscan", frames: 6, close: false)
        let reader = try ScanReader(url: url)
        #expect(reader.indexWasRebuilt)
        #expect(reader.frameCount == 6)
        #expect(try reader.frame(at: 5).timestamp == fixture.scene.timestamp(at: 5))
    }

    @Test func cutInsideTheHeaderIsReportedAsSuch() throws {
        let fixture = try ScanFixture()
        defer { fixture.remove() }
        let full = try Data(contentsOf: try fixture.record("h.hscan", frames: 1))
        let cut = fixture.folder.appendingPathComponent("cut.hscan")
        for offset in [3, 12, 40] {
            try full.prefix(offset).write(to: cut)
            #expect(throws: ScanFileError.truncatedHeader(path: cut.path)) { try ScanReader(url: cut) }
        }
    }

    @Test func flippedPayloadByteDamagesOnlyThatFrame() throws {
        let fixture = try ScanFixture()
        defer { fixture.remove() }
        let url = try fixture.record("flip.hscan", frames: 5)
        let (starts, _, _) = try layout(url)
        var bytes = try Data(contentsOf: url)
        bytes[starts[2] + 200] ^= 0xFF
        try bytes.write(to: url)
        let reader = try ScanReader(url: url)
        #expect(throws: ScanFileError.damagedFrame(index: 2, reason: "checksum mismatch")) { try reader.frame(at: 2) }
        let results = Array(reader.frames())
        #expect(results.filter { (try? $0.get()) != nil }.count == 4)
        #expect(reader.verify().count == 1)
    }

    @Test func damagedRecordHeaderInUnclosedFileKeepsFrameNumbers() throws {
        let fixture = try ScanFixture()
        defer { fixture.remove() }
        let url = try fixture.record("hdr.hscan", frames: 5, close: false)
        let full = try fixture.record("ref.hscan", frames: 5)
        let (starts, _, _) = try layout(full)
        var bytes = try Data(contentsOf: url)
        bytes[starts[1] + 10] ^= 0x40  // inside frame 1's record header
        try bytes.write(to: url)
        let reader = try ScanReader(url: url)
        #expect(reader.frameCount == 5)
        #expect(reader.damagedRecords.count == 1)
        #expect(throws: ScanFileError.self) { try reader.frame(at: 1) }
        #expect(try reader.frame(at: 4).timestamp == fixture.scene.timestamp(at: 4))
    }

    @Test func randomGarbageNeverCrashesTheReader() throws {
        let fixture = try ScanFixture(width: 16, height: 12)
        defer { fixture.remove() }
        let valid = [UInt8](try Data(contentsOf: try fixture.record("v.hscan", frames: 3)))
        let url = fixture.folder.appendingPathComponent("garbage.hscan")
        var rng = SplitMix64(seed: 42)
        for trial in 0..<1000 {
            var bytes: [UInt8]
            switch trial % 3 {
            case 0:  // pure noise, sometimes behind a valid magic
                bytes = (0..<Int(rng.next() % 600)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
                if trial % 2 == 0 { bytes = Array(valid.prefix(8)) + bytes }
            case 1:  // a valid file with bytes overwritten
                bytes = valid
                for _ in 0..<(1 + Int(rng.next() % 16)) {
                    bytes[Int(rng.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: rng.next())
                }
            default:  // a valid header followed by shuffled pieces of records
                bytes = Array(valid.prefix(Int(rng.next() % UInt64(valid.count))))
                bytes += valid.suffix(Int(rng.next() % UInt64(valid.count)))
            }
            try Data(bytes).write(to: url)
            guard let reader = try? ScanReader(url: url) else { continue }
            for result in reader.frames() { _ = try? result.get() }
            _ = reader.verify()
        }
    }
}
