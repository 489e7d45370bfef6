#if canImport(CZlibCRC)
import CZlibCRC
#endif

/// CRC-32 (IEEE 802.3, the polynomial of zlib and PNG): zlib's where the platform links it
/// (several times faster: it is most of the time spent checking a recording), else computed
/// here eight bytes at a time.
public enum CRC32 {
    /// The checksum of `bytes`, continuing from `crc` (0 to start).
    public static func checksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        #if canImport(CZlibCRC)
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return crc }
        return UInt32(truncatingIfNeeded: crc32_z(UInt(crc), base.assumingMemoryBound(to: UInt8.self), bytes.count))
        #else
        portableChecksum(bytes, continuing: crc)
        #endif
    }

    /// The table-driven checksum (what Apple platforms use; tests compare it with zlib's).
    static func portableChecksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        var c = ~crc
        var index = 0
        let count = bytes.count
        Table.shared.withUnsafeBufferPointer { t in
            while index + 8 <= count {
                let low = bytes.loadUnaligned(fromByteOffset: index, as: UInt32.self).littleEndian ^ c
                let high = bytes.loadUnaligned(fromByteOffset: index + 4, as: UInt32.self).littleEndian
                c =
                    t[7 * 256 + Int(low & 0xFF)] ^ t[6 * 256 + Int((low >> 8) & 0xFF)]
                    ^ t[5 * 256 + Int((low >> 16) & 0xFF)] ^ t[4 * 256 + Int(low >> 24)]
                    ^ t[3 * 256 + Int(high & 0xFF)] ^ t[2 * 256 + Int((high >> 8) & 0xFF)]
                    ^ t[1 * 256 + Int((high >> 16) & 0xFF)] ^ t[Int(high >> 24)]
                index += 8
            }
            while index < count {
                c = t[Int((c ^ UInt32(bytes[index])) & 0xFF)] ^ (c >> 8)
                index += 1
            }
        }
        return ~c
    }

    /// The checksum of a byte array.
    public static func checksum(_ bytes: [UInt8], continuing crc: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0, continuing: crc) }
    }

    /// Slicing-by-8 lookup tables: table k advances the CRC over k more zero bytes.
    private enum Table {
        static let shared: [UInt32] = {
            var table = [UInt32](repeating: 0, count: 8 * 256)
            for n in 0..<256 {
                var c = UInt32(n)
                for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
                table[n] = c
            }
            for n in 0..<256 {
                for k in 1..<8 {
                    let previous = table[(k - 1) * 256 + n]
                    table[k * 256 + n] = table[Int(previous & 0xFF)] ^ (previous >> 8)
                }
            }
            return table
        }()
    }
}
