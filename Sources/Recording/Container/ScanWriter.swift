import Foundation
import Imaging

/// Streams a scan to one file, frame by frame, so memory does not grow with its length.
///
/// Each frame is written as soon as it arrives, with its own checksum, so an app that is
/// killed mid-scan leaves a file that opens with every frame written before. `close()` adds
/// the seek index; without it the reader rebuilds the index by scanning.
public final class ScanWriter {
    /// Options that shape the recording.
    public struct Options: Sendable {
        /// How colour pictures are stored.
        public var colorCodec: ColorCodec
        /// Frames between `fsync` calls: bounds what a power loss can take (0: only at close).
        public var synchronizeEvery: Int
        /// Replace an existing file instead of refusing to.
        public var overwrite: Bool

        /// Options with JPEG 92 colour, a sync every 30 frames (one second) and no overwrite.
        public init(colorCodec: ColorCodec = .standard, synchronizeEvery: Int = 30, overwrite: Bool = false) {
            self.colorCodec = colorCodec
            self.synchronizeEvery = synchronizeEvery
            self.overwrite = overwrite
        }
    }

    /// Where the file is.
    public let url: URL
    /// The header written at the start.
    public let header: ScanHeader
    /// The options in force.
    public let options: Options
    /// Frames written so far.
    public var frameCount: Int { index.count }
    /// Bytes written so far.
    public private(set) var bytesWritten = 0

    private let file: BinaryFile
    private let imageCodec: any ImageCodec
    private var index: [IndexEntry] = []
    private var isClosed = false

    /// Creates the file and writes the header.
    public init(
        url: URL, header: ScanHeader, options: Options = Options(),
        imageCodec: any ImageCodec = ImageCodecs.system
    ) throws {
        if case .jpeg(let quality) = options.colorCodec, !(1...100).contains(quality) {
            throw ScanFileError.invalidFrame("JPEG quality must be 1...100, not \(quality)")
        }
        self.url = url
        self.header = header
        self.options = options
        self.imageCodec = imageCodec
        file = try BinaryFile(creatingAt: url.path, overwrite: options.overwrite)
        try write(FileHeader.encode(header))
        try file.synchronize()
    }

    /// Encodes and appends one frame.
    public func append(_ frame: RGBDFrame) throws {
        guard !isClosed else { throw ScanFileError.writerClosed }
        try validate(frame)
        let payload = try FrameRecord.encode(frame, colorCodec: options.colorCodec, imageCodec: imageCodec)
        try appendRecord(payload, timestamp: frame.timestamp)
    }

    var isClosedForCopy: Bool { isClosed }
    var lastTimestamp: Double? { index.last?.timestamp }

    /// Writes one frame record with its header and notes it in the index.
    func appendRecord(_ payload: [UInt8], timestamp: Double) throws {
        let offset = bytesWritten
        let recordHeader = RecordHeader(kind: .frame, sequence: UInt32(index.count), payload: payload)
        try write(recordHeader.bytes)
        try write(payload)
        index.append(IndexEntry(offset: UInt64(offset), timestamp: timestamp))
        if options.synchronizeEvery > 0, index.count % options.synchronizeEvery == 0 {
            try file.synchronize()
        }
    }

    /// Writes the seek index and the trailer and flushes everything to storage.
    public func close() throws {
        guard !isClosed else { return }
        isClosed = true
        let payload = IndexEntry.encode(index)
        let indexOffset = bytesWritten
        try write(RecordHeader(kind: .index, sequence: 0, payload: payload).bytes + payload)
        try write(Trailer.encode(indexOffset: UInt64(indexOffset)))
        try file.synchronize()
    }

    private func write(_ bytes: [UInt8]) throws {
        try file.write(bytes)
        bytesWritten += bytes.count
    }

    private func validate(_ frame: RGBDFrame) throws {
        guard !frame.color.isEmpty, !frame.depth.isEmpty else {
            throw ScanFileError.invalidFrame("colour and depth must not be empty")
        }
        guard frame.timestamp.isFinite else {
            throw ScanFileError.invalidFrame("timestamp \(frame.timestamp) is not a number")
        }
        if let last = index.last, frame.timestamp < last.timestamp {
            throw ScanFileError.invalidFrame(
                "timestamp \(frame.timestamp) s goes back in time (previous \(last.timestamp) s)")
        }
    }
}
