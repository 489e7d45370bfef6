import Foundation

/// Portable Float Map (PFM), the plain 32-bit float image format that OpenCV, Middlebury and
/// many depth tools write: a text header `Pf` (one channel; `PF` is colour), the width and
/// height, and a scale whose sign gives the byte order (negative: little-endian), each ended
/// by whitespace, then the rows from the bottom up, four bytes per value.
public enum PortableFloatMap {
    /// Largest picture read: 64 megapixels.
    static let maximumPixels = 64 << 20

    /// The values, top row first, of a one-channel PFM.
    public static func decodeGray(_ bytes: [UInt8], path: String = "PFM") throws(TUMError) -> (width: Int, height: Int, values: [Float]) {
        func bad(_ reason: String) -> TUMError { .badImage(path: path, reason: reason) }
        var at = 0
        func token() -> String? {
            while at < bytes.count, isSpace(bytes[at]) { at += 1 }
            let start = at
            while at < bytes.count, !isSpace(bytes[at]), at - start < 32 { at += 1 }
            guard at > start, at < bytes.count, isSpace(bytes[at]) else { return nil }
            defer { at += 1 }  // exactly one whitespace byte ends the header's last field
            return String(decoding: bytes[start..<at], as: UTF8.self)
        }
        guard let magic = token() else { throw bad("it is not a PFM file (no header)") }
        guard magic == "Pf" else {
            throw bad(magic == "PF" ? "it holds colour (PF); depth must be one channel (Pf)" : "it is not a PFM file (starts \(magic.prefix(8)))")
        }
        guard let w = token().flatMap({ Int($0) }), let h = token().flatMap({ Int($0) }), w > 0, h > 0,
            w <= maximumPixels, h <= maximumPixels / w
        else { throw bad("its width and height must be positive whole numbers, at most \(maximumPixels) pixels in all") }
        guard let scale = token().flatMap({ Double($0) }), scale != 0, scale.isFinite else {
            throw bad("its scale must be a non-zero number (negative: little-endian)")
        }
        let count = w * h
        guard bytes.count - at == count * 4 else {
            throw bad("it should hold \(count * 4) bytes of values after the header, not \(bytes.count - at)")
        }
        var values = [Float](repeating: 0, count: count)
        let littleEndian = scale < 0
        for row in 0..<h {
            // Stored bottom row first.
            let source = at + (h - 1 - row) * w * 4
            for column in 0..<w {
                let o = source + column * 4
                let word =
                    littleEndian
                    ? UInt32(bytes[o]) | UInt32(bytes[o + 1]) << 8 | UInt32(bytes[o + 2]) << 16 | UInt32(bytes[o + 3]) << 24
                    : UInt32(bytes[o + 3]) | UInt32(bytes[o + 2]) << 8 | UInt32(bytes[o + 1]) << 16 | UInt32(bytes[o]) << 24
                values[row * w + column] = Float(bitPattern: word)
            }
        }
        return (w, h, values)
    }

    /// A one-channel little-endian PFM of `values` (top row first).
    public static func encodeGray(width: Int, height: Int, values: [Float]) -> [UInt8] {
        var out = Array("Pf\n\(width) \(height)\n-1.0\n".utf8)
        out.reserveCapacity(out.count + values.count * 4)
        for row in stride(from: height - 1, through: 0, by: -1) {
            for value in values[(row * width)..<((row + 1) * width)] {
                let word = value.bitPattern
                out += [UInt8(word & 0xFF), UInt8(word >> 8 & 0xFF), UInt8(word >> 16 & 0xFF), UInt8(word >> 24)]
            }
        }
        return out
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }

}
