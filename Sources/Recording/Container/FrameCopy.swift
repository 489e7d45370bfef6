import Foundation
import Imaging

/// A frame's record checked and rebuilt without encoding its pictures again: for tools that
/// keep a recording's pixels exactly but not the container around them (the research service
/// keeps its own file: fresh record headers, index and trailer, a new time, and the colour
/// picture reduced to what it needs).
public struct CopiedFrame: Sendable {
    let payload: [UInt8]
    /// The time the copy carries.
    public let timestamp: Double
}

extension ScanReader {
    /// Frame `index`, decoded completely to check it, and its record rebuilt with `timestamp`
    /// in place of the recorded time, the colour picture's bytes as `colorBytes` returns them
    /// (given the stored bytes and whether they are a JPEG) and the depth map as stored. The
    /// pictures that are kept are the ones decoded: what `colorBytes` returns must decode.
    public func copiedFrame(at index: Int, timestamp: Double, colorBytes: ([UInt8], _ isJPEG: Bool) throws -> [UInt8]) throws -> CopiedFrame {
        let stored = try payload(at: index)
        let parts: FrameParts
        do {
            parts = try stored.withUnsafeBytes { raw throws(ByteReaderError) in try FrameParts(raw) }
        } catch {
            throw ScanFileError.damagedFrame(index: index, reason: "record is shorter than its contents")
        }
        guard let tag = ColorCodecTag(rawValue: parts.tag) else { throw ScanFileError.damagedFrame(index: index, reason: "unknown colour codec") }
        let color = try colorBytes(parts.color, tag == .jpeg)
        var writer = ByteWriter(capacity: stored.count)
        writer.append(timestamp)
        writer.append(contentsOf: parts.cameras)
        writer.append(parts.tag)
        writer.append(tag == .jpeg ? min(100, max(1, parts.quality)) : 0)
        writer.append(contentsOf: [0, 0])
        writer.append(UInt32(color.count))
        writer.append(contentsOf: color)
        writer.append(UInt32(parts.depth.count))
        writer.append(contentsOf: parts.depth)
        // Decoded as a reader will: a picture or depth map that does not decode is refused.
        _ = try FrameRecord.decode(writer.bytes, index: index, imageCodec: imageCodec)
        return CopiedFrame(payload: writer.bytes, timestamp: timestamp)
    }
}

extension ScanWriter {
    /// Appends a frame copied from another recording.
    public func append(_ copied: CopiedFrame) throws {
        guard !isClosedForCopy else { throw ScanFileError.writerClosed }
        guard copied.timestamp.isFinite, copied.timestamp >= (lastTimestamp ?? -.infinity) else {
            throw ScanFileError.invalidFrame("timestamp \(copied.timestamp) s goes back in time")
        }
        try appendRecord(copied.payload, timestamp: copied.timestamp)
    }
}

/// The fields of a frame payload, as stored.
private struct FrameParts {
    var cameras: [UInt8]
    var tag: UInt8
    var quality: UInt8
    var color: [UInt8]
    var depth: [UInt8]

    init(_ raw: UnsafeRawBufferPointer) throws(ByteReaderError) {
        var reader = ByteReader(raw)
        _ = try reader.readDouble()
        cameras = Array(try reader.readBytes(80))
        tag = try reader.read(UInt8.self)
        quality = try reader.read(UInt8.self)
        _ = try reader.readBytes(2)
        color = Array(try reader.readBytes(Int(try reader.read(UInt32.self))))
        depth = Array(try reader.readBytes(Int(try reader.read(UInt32.self))))
        guard reader.remaining == 0 else { throw ByteReaderError() }
    }
}
