import Foundation
import Testing

@testable import Recording

/// The record checksum: zlib's where it is linked, the table-driven one elsewhere; both must
/// give CRC-32 as PNG and zlib define it, in one piece or continued.
@Suite struct CRC32Tests {
    @Test func theStandardCheckValue() {
        let bytes = Array("123456789".utf8)
        #expect(CRC32.checksum(bytes) == 0xCBF4_3926)
        #expect(bytes.withUnsafeBytes { CRC32.portableChecksum($0) } == 0xCBF4_3926)
        #expect(CRC32.checksum([]) == 0)
    }

    @Test(arguments: [0, 1, 7, 8, 9, 63, 1000, 65_537])
    func bothAgreeInOnePieceAndContinued(_ count: Int) {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15 &+ UInt64(count)
        let bytes = (0..<count).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        let whole = CRC32.checksum(bytes)
        #expect(bytes.withUnsafeBytes { CRC32.portableChecksum($0) } == whole)
        let cut = count / 3
        let continued = CRC32.checksum(Array(bytes[cut...]), continuing: CRC32.checksum(Array(bytes[..<cut])))
        #expect(continued == whole)
        let portableContinued = bytes.withUnsafeBytes { raw in
            CRC32.portableChecksum(
                UnsafeRawBufferPointer(rebasing: raw[cut...]), continuing: CRC32.portableChecksum(UnsafeRawBufferPointer(rebasing: raw[..<cut])))
        }
        #expect(portableContinued == whole)
    }
}
