/// The 20-byte header in front of every compressed depth map, all integers little-endian.
///
/// | offset | size | field                                                        |
/// |--------|------|--------------------------------------------------------------|
/// | 0      | 2    | magic "HD" (0x48 0x44)                                       |
/// | 2      | 1    | codec version (1)                                            |
/// | 3      | 1    | mode: 0 raw Float32, 1 Float16 keys, 2 Float32 keys          |
/// | 4      | 4    | width in pixels                                              |
/// | 8      | 4    | height in pixels                                             |
/// | 12     | 4    | Float32 pattern written at invalid pixels (the shared NaN)   |
/// | 16     | 4    | payload bytes that follow, exactly                           |
///
/// Raw payloads are the Float32 patterns, little-endian, row by row. Coded payloads are one
/// MSB-first bit stream, zero-padded to a byte.
struct DepthCodecHeader {
    static let size = 20
    static let magic: (UInt8, UInt8) = (0x48, 0x44)

    var mode: DepthAnalysis.Mode
    var width: Int
    var height: Int
    var nanBits: UInt32
    var payloadCount: Int

    init(mode: DepthAnalysis.Mode, width: Int, height: Int, nanBits: UInt32, payloadCount: Int) {
        self.mode = mode
        self.width = width
        self.height = height
        self.nanBits = nanBits
        self.payloadCount = payloadCount
    }

    /// Reads and checks a header against the bytes that follow it.
    init(parsing bytes: UnsafeRawBufferPointer) throws(DepthCodecError) {
        guard bytes.count >= 2 else { throw .truncated(expected: Self.size, actual: bytes.count) }
        guard bytes[0] == Self.magic.0, bytes[1] == Self.magic.1 else { throw .notDepthData }
        guard bytes.count >= Self.size else { throw .truncated(expected: Self.size, actual: bytes.count) }
        let version = Int(bytes[2])
        guard version <= DepthCodec.version, version >= 1 else { throw .unsupportedVersion(version) }
        guard let mode = DepthAnalysis.Mode(rawValue: bytes[3]) else { throw .unknownMode(Int(bytes[3])) }
        func field(_ offset: Int) -> UInt32 {
            UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
        }
        self.mode = mode
        width = Int(field(4))
        height = Int(field(8))
        nanBits = field(12)
        payloadCount = Int(field(16))
        // Both come from the file: multiplied with a check, since 2^32 × 2^32 traps.
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= DepthCodec.maxPixels else { throw .tooLarge(width: width, height: height) }
        let expected = Self.size + payloadCount
        guard bytes.count >= expected else { throw .truncated(expected: expected, actual: bytes.count) }
        guard bytes.count == expected else { throw .corrupt("\(bytes.count - expected) unexpected bytes follow the data") }
        if mode == .raw && payloadCount != width * height * 4 {
            throw .corrupt("raw depth of \(width)x\(height) pixels needs \(width * height * 4) bytes, not \(payloadCount)")
        }
    }

    /// Appends the 20 header bytes.
    func append(to out: inout [UInt8]) {
        out.append(Self.magic.0)
        out.append(Self.magic.1)
        out.append(UInt8(DepthCodec.version))
        out.append(mode.rawValue)
        for value in [UInt32(width), UInt32(height), nanBits, UInt32(payloadCount)] {
            withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
        }
    }
}
