import Foundation
import Imaging

/// The parts of a JPEG a picture needs, and nothing else: start of image, quantisation and
/// Huffman tables, the frame header, restart interval, the scan with its entropy-coded data,
/// end of image. Application segments (EXIF with a device's clock and serial, XMP), comments
/// and bytes after the end are dropped; the pixels stay exactly as they were.
enum JPEGSegments {
    enum Problem: Error, CustomStringConvertible {
        case notJPEG, truncated, unsupportedMarker(UInt8)
        var description: String {
            switch self {
            case .notJPEG: "the colour picture is not the JPEG or PNG its frame names"
            case .truncated: "the colour picture ends early"
            case .unsupportedMarker(let marker): String(format: "the colour picture has a segment (FF%02X) HeadScan does not write", marker)
            }
        }
    }

    /// Segments kept: DQT, SOF0–SOF2, DHT, DRI.
    static let kept: Set<UInt8> = [0xDB, 0xC0, 0xC1, 0xC2, 0xC4, 0xDD]

    static func essential(_ bytes: [UInt8]) throws(Problem) -> [UInt8] {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { throw .notJPEG }
        var out: [UInt8] = [0xFF, 0xD8]
        out.reserveCapacity(bytes.count)
        var offset = 2
        while true {
            guard offset + 4 <= bytes.count, bytes[offset] == 0xFF else { throw .truncated }
            var marker = bytes[offset + 1]
            // Fill bytes (FF FF …) before a marker.
            while marker == 0xFF {
                offset += 1
                guard offset + 4 <= bytes.count else { throw .truncated }
                marker = bytes[offset + 1]
            }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2, offset + 2 + length <= bytes.count else { throw .truncated }
            let segment = bytes[offset..<offset + 2 + length]
            switch marker {
            case 0xDA:
                out += segment
                offset += 2 + length
                let end = try entropyEnd(bytes, from: offset)
                out += bytes[offset..<end]
                out += [0xFF, 0xD9]
                return out
            case let m where kept.contains(m): out += segment
            case 0xE0...0xEF, 0xFE: break
            default: throw .unsupportedMarker(marker)
            }
            offset += 2 + length
        }
    }

    /// Where the entropy-coded data of a (single, baseline) scan ends: at the end-of-image
    /// marker; stuffed zeros and restart markers belong to the data.
    static func entropyEnd(_ bytes: [UInt8], from start: Int) throws(Problem) -> Int {
        var offset = start
        while offset + 1 < bytes.count {
            if bytes[offset] == 0xFF {
                let next = bytes[offset + 1]
                if next == 0x00 || (0xD0...0xD7).contains(next) {
                    offset += 2
                    continue
                }
                if next == 0xD9 { return offset }
                throw .unsupportedMarker(next)
            }
            offset += 1
        }
        throw .truncated
    }
}

/// The chunks a PNG picture needs (header, palette, transparency, data, end), and nothing
/// else: text chunks, times, EXIF and bytes after the end are dropped; chunks are copied with
/// their checksums, so the pixels stay exactly as they were.
enum PNGChunks {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    static let kept: Set<String> = ["IHDR", "PLTE", "tRNS", "IDAT", "IEND"]

    static func essential(_ bytes: [UInt8]) throws(JPEGSegments.Problem) -> [UInt8] {
        guard bytes.starts(with: signature) else { throw .notJPEG }
        var chunks: [Range<Int>] = []
        var offset = signature.count
        while true {
            guard offset + 12 <= bytes.count else { throw .truncated }
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length <= bytes.count - offset - 12 else { throw .truncated }
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            let end = offset + 12 + length
            if kept.contains(type) { chunks.append(offset..<end) }
            if type == "IEND" { break }
            offset = end
        }
        // A picture that is all kept chunks (as HeadScan writes it) is kept as it is, uncopied.
        let keptBytes = chunks.reduce(signature.count) { $0 + $1.count }
        if keptBytes == bytes.count { return bytes }
        var out = signature
        out.reserveCapacity(keptBytes)
        for chunk in chunks { out += bytes[chunk] }
        return out
    }
}
