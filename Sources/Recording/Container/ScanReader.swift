import Foundation
import Imaging

/// Reads a scan file: random access to any frame, sequential iteration, bounded memory.
///
/// Opening reads only the header and the seek index (16 bytes a frame). A file without an
/// index (the recording was cut off) is scanned record by record instead, and yields every
/// frame that was complete before the cut.
public final class ScanReader: Sendable {
    /// Where the file is.
    public let url: URL
    /// What the recording says about itself.
    public let header: ScanHeader
    /// The format version the file was written with.
    public let formatVersion: Int
    /// Whether the seek index was missing or unreadable and had to be rebuilt by scanning.
    public let indexWasRebuilt: Bool
    /// Records found damaged while rebuilding the index (closed files check on read).
    public let damagedRecords: [DamagedRecord]

    private let file: BinaryFile
    private let entries: [IndexEntry?]
    let imageCodec: any ImageCodec

    /// Opens a scan; fails only when the header itself is missing or unreadable.
    public init(url: URL, imageCodec: any ImageCodec = ImageCodecs.system) throws {
        self.url = url
        self.imageCodec = imageCodec
        file = try BinaryFile(readingAt: url.path)
        let (header, version, headerEnd) = try FileHeader.read(from: file)
        self.header = header
        formatVersion = version
        let size = try file.size()
        if let entries = try Self.storedIndex(in: file, size: size, headerEnd: headerEnd) {
            self.entries = entries
            indexWasRebuilt = false
            damagedRecords = []
        } else {
            let scan = try RecordScanner(file: file, start: headerEnd, size: size).run()
            entries = scan.entries
            indexWasRebuilt = true
            damagedRecords = scan.damaged
        }
    }

    /// Number of frames, damaged ones included.
    public var frameCount: Int { entries.count }

    /// Seconds from the first to the last frame.
    public var durationSeconds: Double {
        let stamps = entries.compactMap { $0?.timestamp }
        guard let first = stamps.first, let last = stamps.last else { return 0 }
        return last - first
    }

    /// Size of the file in bytes.
    public func fileSize() throws -> Int { try file.size() }

    /// The recorded timestamp of a frame, without decoding it; nil when its record is lost.
    public func timestamp(at index: Int) -> Double? {
        entries.indices.contains(index) ? entries[index]?.timestamp : nil
    }

    /// Reads and decodes one frame; a damaged frame throws `ScanFileError.damagedFrame`.
    /// Frame records hold the pinhole part of the cameras; the lens distortion comes from the
    /// header (it does not change from frame to frame).
    public func frame(at index: Int) throws -> RGBDFrame {
        var frame = try FrameRecord.decode(try payload(at: index), index: index, imageCodec: imageCodec)
        frame.colorIntrinsics.distortion = header.colorIntrinsics.distortion
        frame.depthIntrinsics.distortion = header.depthIntrinsics.distortion
        return frame
    }

    /// The frames in order; damaged ones come as failures so the caller can skip them.
    public func frames() -> FrameSequence { FrameSequence(reader: self) }

    /// How colour is stored, read from the first intact frame; nil when none is.
    public func colorCodec() -> ColorCodec? {
        (0..<frameCount).lazy.compactMap { try? self.payload(at: $0) }.first.flatMap(FrameRecord.colorCodec)
    }

    /// Checks every record's checksum without decoding pictures; returns the damaged ones.
    public func verify(progress: (Int) -> Void = { _ in }) -> [ScanFileError] {
        var problems: [ScanFileError] = []
        for index in 0..<frameCount {
            do { _ = try payload(at: index) } catch let error as ScanFileError { problems.append(error) } catch {
                problems.append(.damagedFrame(index: index, reason: "\(error)"))
            }
            progress(index + 1)
        }
        return problems
    }

    /// Reads a frame record's payload and checks it against its header.
    func payload(at index: Int) throws -> [UInt8] {
        guard entries.indices.contains(index) else {
            throw ScanFileError.frameOutOfRange(index: index, count: frameCount)
        }
        guard let entry = entries[index] else {
            throw ScanFileError.damagedFrame(index: index, reason: "its record header is unreadable")
        }
        let offset = Int(clamping: entry.offset)
        let headerBytes = try file.read(at: offset, count: ScanFormat.recordHeaderSize)
        guard let header = headerBytes.withUnsafeBytes({ RecordHeader(parsing: $0) }),
            header.kind == RecordKind.frame.rawValue, header.sequence == index
        else { throw ScanFileError.damagedFrame(index: index, reason: "its record header is unreadable") }
        let payload = try file.read(at: offset + ScanFormat.recordHeaderSize, count: Int(header.payloadLength))
        guard payload.count == Int(header.payloadLength) else {
            throw ScanFileError.damagedFrame(index: index, reason: "the file ends inside it")
        }
        guard CRC32.checksum(payload) == header.payloadCRC else {
            throw ScanFileError.damagedFrame(index: index, reason: "checksum mismatch")
        }
        return payload
    }

    /// The index written at close, or nil when it is missing or does not check out.
    private static func storedIndex(in file: BinaryFile, size: Int, headerEnd: Int) throws -> [IndexEntry?]? {
        guard size >= headerEnd + ScanFormat.trailerSize,
            let offset = Trailer.decode(try file.read(at: size - ScanFormat.trailerSize, count: ScanFormat.trailerSize)),
            offset >= headerEnd, offset < size
        else { return nil }
        let start = Int(offset)
        let headerBytes = try file.read(at: start, count: ScanFormat.recordHeaderSize)
        guard let header = headerBytes.withUnsafeBytes({ RecordHeader(parsing: $0) }),
            header.kind == RecordKind.index.rawValue,
            start + ScanFormat.recordHeaderSize + Int(header.payloadLength) + ScanFormat.trailerSize == size
        else { return nil }
        let payload = try file.read(at: start + ScanFormat.recordHeaderSize, count: Int(header.payloadLength))
        guard CRC32.checksum(payload) == header.payloadCRC, let entries = IndexEntry.decode(payload),
            entries.allSatisfy({ $0.offset >= headerEnd && $0.offset < offset })
        else { return nil }
        return entries
    }
}

/// A record the scanner could not use, by its place in the file.
public struct DamagedRecord: Sendable, Equatable {
    /// Byte offset where the damage starts.
    public var offset: Int
    /// Bytes skipped to find the next readable record.
    public var skippedBytes: Int
}

/// The frames of a scan in order, each a success or the reason it could not be read.
public struct FrameSequence: Sequence {
    let reader: ScanReader

    public func makeIterator() -> Iterator { Iterator(reader: reader) }

    /// Decodes one frame at a time; nothing is kept after it is handed out.
    public struct Iterator: IteratorProtocol {
        let reader: ScanReader
        var position = 0

        public mutating func next() -> Result<RGBDFrame, ScanFileError>? {
            guard position < reader.frameCount else { return nil }
            defer { position += 1 }
            do {
                return .success(try reader.frame(at: position))
            } catch let error as ScanFileError {
                return .failure(error)
            } catch {
                return .failure(.damagedFrame(index: position, reason: "\(error)"))
            }
        }
    }
}
