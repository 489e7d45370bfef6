import Foundation
import Geometry
import Imaging
import Testing

@testable import Recording

struct PortableFloatMapTests {
    /// `cv2.imwrite("d.pfm", np.array([[0.5, 0, 1.25], [nan, 2, -1]], np.float32))`, OpenCV 5.0.0.
    static let fromOpenCV: [UInt8] =
        Array("Pf\n3 2\n-1\n".utf8) + [
            0x00, 0x00, 0xC0, 0x7F, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x80, 0xBF,
            0x00, 0x00, 0x00, 0x3F, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xA0, 0x3F,
        ]

    @Test func readsWhatOpenCVWritesTopRowFirst() throws {
        let (width, height, values) = try PortableFloatMap.decodeGray(Self.fromOpenCV)
        #expect(width == 3 && height == 2)
        #expect(Array(values[0..<3]) == [0.5, 0, 1.25])
        #expect(values[3].isNaN && values[4] == 2 && values[5] == -1)
        // And writes it the same way.
        #expect(PortableFloatMap.encodeGray(width: 3, height: 2, values: values).count == Self.fromOpenCV.count + 2)  // "-1.0" for "-1"
        let again = try PortableFloatMap.decodeGray(PortableFloatMap.encodeGray(width: 3, height: 2, values: values))
        #expect(again.values.enumerated().allSatisfy { $0.element == values[$0.offset] || ($0.element.isNaN && values[$0.offset].isNaN) })
    }

    @Test func bigEndianAndColourAndShortFilesAreToldApart() throws {
        var big = Array("Pf\n1 1\n1.0\n".utf8)
        big += [0x3F, 0x80, 0x00, 0x00]
        #expect(try PortableFloatMap.decodeGray(big).values == [1])
        #expect { try PortableFloatMap.decodeGray(Array("PF\n1 1\n-1\n".utf8) + [0, 0, 0, 0]) } throws: { "\($0)".contains("colour") }
        #expect { try PortableFloatMap.decodeGray(Array(Self.fromOpenCV.dropLast())) } throws: { "\($0)".contains("bytes of values") }
        #expect { try PortableFloatMap.decodeGray(Array("Pf\n99999999 99999999\n-1\n".utf8)) } throws: { "\($0)".contains("at most") }
    }

    /// Seeded mutations of the header and the values: a picture or a typed error, never a trap.
    @Test func mutatedFilesAreReadTotally() {
        var rng = Xoshiro256(seed: 29)
        for _ in 0..<2000 {
            var bytes = Self.fromOpenCV
            for _ in 0..<(1 + Int(rng.next() % 3)) {
                let at = Int(rng.next() % UInt64(bytes.count))
                switch rng.next() % 3 {
                case 0: bytes[at] = UInt8(truncatingIfNeeded: rng.next())
                case 1: bytes.remove(at: at)
                default: bytes.insert(Array(" \n-9e0".utf8)[Int(rng.next() % 6)], at: at)
                }
                if bytes.isEmpty { bytes = [0x50] }
            }
            do {
                let (w, h, values) = try PortableFloatMap.decodeGray(bytes)
                #expect(values.count == w * h)
            } catch {
                #expect(!"\(error)".isEmpty)
            }
        }
    }

    @Test func tumImportReadsFloatDepthInMetresOrAsToldAndDropsTheInvalid() throws {
        let fixture = try ScanFixture(width: 3, height: 2)
        defer { fixture.remove() }
        let reader = try ScanReader(url: try fixture.record("s.hscan", frames: 1, codec: .png))
        let folder = fixture.folder.appendingPathComponent("tum")
        try TUMExporter().export(reader, to: folder)
        // Replace the depth PNG by the PFM, under the name the lists give.
        let list = try String(contentsOf: folder.appendingPathComponent("associations.txt"), encoding: .utf8)
        let depthPath = try #require(list.split(separator: " ").last.map { String($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
        try Data(Self.fromOpenCV).write(to: folder.appendingPathComponent(depthPath))
        let out = fixture.folder.appendingPathComponent("metres.hscan")
        try TUMImporter().importFolder(folder, to: out)
        let depth = try ScanReader(url: out).frame(at: 0).depth
        #expect(depth[0, 0] == 0.5 && depth[2, 0] == 1.25 && depth[1, 1] == 2)
        #expect(depth[1, 0].isNaN && depth[0, 1].isNaN && depth[2, 1].isNaN)  // zero, NaN, negative
        let millimetres = fixture.folder.appendingPathComponent("mm.hscan")
        try TUMImporter().importFolder(folder, to: millimetres, floatDepthScale: 1000)
        #expect(try ScanReader(url: millimetres).frame(at: 0).depth[1, 1] == 0.002)
    }
}
