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
    /// The depth map is decoded into `depthScratch`, so that a caller copying every frame
    /// reuses one buffer. The record is read once and its
    /// parts are taken from it in place: a recording is copied with one decode of each picture
    /// and one new buffer per frame.
    public func copiedFrame(
        at index: Int, timestamp: Double, depthScratch: inout DepthImage, colorBytes: ([UInt8], _ isJPEG: Bool) throws -> [UInt8]
    ) throws -> CopiedFrame {
        let stored = try payload(at: index)
        guard let parts = FrameParts(stored) else {
            throw ScanFileError.damagedFrame(index: index, reason: "record is shorter than its contents")
        }
        guard let tag = ColorCodecTag(rawValue: stored[parts.tag]) else {
            throw ScanFileError.damagedFrame(index: index, reason: "unknown colour codec")
        }
        let color = try colorBytes(Array(stored[parts.color]), tag == .jpeg)
        // Decoded as a reader will: a picture or depth map that does not decode is refused.
        do {
            switch tag {
            case .jpeg: _ = try imageCodec.decodeJPEG(color)
            case .png: _ = try imageCodec.decodePNG(color)
            }
        } catch {
            throw ScanFileError.damagedFrame(index: index, reason: "colour picture: \(error)")
        }
        do {
            try Self.decodeDepth(stored, range: parts.depth, into: &depthScratch)
        } catch {
            throw ScanFileError.damagedFrame(index: index, reason: "depth map: \(error)")
        }
        var writer = ByteWriter(capacity: stored.count)
        writer.append(timestamp)
        writer.append(contentsOf: stored[parts.cameras])
        writer.append(tag.rawValue)
        writer.append(tag == .jpeg ? min(100, max(1, stored[parts.tag + 1])) : 0)
        writer.append(contentsOf: [0, 0])
        writer.append(UInt32(color.count))
        writer.append(contentsOf: color)
        writer.append(UInt32(parts.depth.count))
        writer.append(contentsOf: stored[parts.depth])
        return CopiedFrame(payload: writer.bytes, timestamp: timestamp)
    }

    private static func decodeDepth(_ stored: [UInt8], range: Range<Int>, into depth: inout DepthImage) throws {
        var failure: (any Error)?
        stored.withUnsafeBytes { raw in
            do {
                try DepthCodec.decode(UnsafeRawBufferPointer(rebasing: raw[range]), into: &depth)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
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

/// Where the fields of a frame payload lie in its bytes (nil when the lengths do not add up).
private struct FrameParts {
    var cameras: Range<Int>
    var tag: Int
    var color: Range<Int>
    var depth: Range<Int>

    init?(_ stored: [UInt8]) {
        let parsed = stored.withUnsafeBytes { raw -> FrameParts? in
            var reader = ByteReader(raw)
            do {
                _ = try reader.readDouble()
                let cameras = reader.offset..<reader.offset + 80
                _ = try reader.readBytes(80)
                let tag = reader.offset
                _ = try reader.readBytes(4)
                let colorCount = Int(try reader.read(UInt32.self))
                let color = reader.offset..<reader.offset + min(colorCount, reader.remaining)
                _ = try reader.readBytes(colorCount)
                let depthCount = Int(try reader.read(UInt32.self))
                let depth = reader.offset..<reader.offset + min(depthCount, reader.remaining)
                _ = try reader.readBytes(depthCount)
                guard reader.remaining == 0 else { return nil }
                return FrameParts(cameras: cameras, tag: tag, color: color, depth: depth)
            } catch {
                return nil
            }
        }
        guard let parsed else { return nil }
        self = parsed
    }

    private init(cameras: Range<Int>, tag: Int, color: Range<Int>, depth: Range<Int>) {
        (self.cameras, self.tag, self.color, self.depth) = (cameras, tag, color, depth)
    }
}
