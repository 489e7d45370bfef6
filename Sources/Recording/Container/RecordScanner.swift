/// Rebuilds the seek index of a file without one by walking its records from the header on.
///
/// It stops at the first record that runs past the end of the file (the cut of an
/// interrupted recording) and steps over damaged record headers by searching for the next
/// record magic whose header checksum holds.
struct RecordScanner {
    let file: BinaryFile
    let start: Int
    let size: Int

    struct Result {
        var entries: [IndexEntry?] = []
        var damaged: [DamagedRecord] = []
    }

    func run() throws -> Result {
        var result = Result()
        var position = start
        while position + ScanFormat.recordHeaderSize <= size {
            // Header and the payload's first 8 bytes (the frame timestamp) in one read.
            let bytes = try file.read(at: position, count: ScanFormat.recordHeaderSize + 8)
            guard let header = bytes.withUnsafeBytes({ RecordHeader(parsing: $0) }) else {
                guard let next = try nextRecord(after: position) else { break }
                result.damaged.append(DamagedRecord(offset: position, skippedBytes: next - position))
                position = next
                continue
            }
            let end = position + ScanFormat.recordHeaderSize + Int(header.payloadLength)
            guard end <= size, header.kind == RecordKind.frame.rawValue else { break }
            place(header, at: position, timestamp: timestamp(bytes), in: &result)
            position = end
        }
        return result
    }

    /// Puts a frame at its sequence number; frames lost to damage stay as gaps.
    private func place(_ header: RecordHeader, at position: Int, timestamp: Double, in result: inout Result) {
        let sequence = Int(header.sequence)
        // A sequence far beyond the frames seen is damage the checksum missed; ignore it.
        guard sequence >= result.entries.count, sequence < result.entries.count + 1 + (size >> 10) else {
            return
        }
        while result.entries.count < sequence { result.entries.append(nil) }
        result.entries.append(IndexEntry(offset: UInt64(position), timestamp: timestamp))
    }

    private func timestamp(_ bytes: [UInt8]) -> Double {
        guard bytes.count >= ScanFormat.recordHeaderSize + 8 else { return .nan }
        return bytes.withUnsafeBytes {
            Double(bitPattern: $0.loadUnaligned(fromByteOffset: ScanFormat.recordHeaderSize, as: UInt64.self).littleEndian)
        }
    }

    /// The offset of the next valid record header after `position`, if any.
    private func nextRecord(after position: Int) throws -> Int? {
        let chunk = 1 << 16
        var base = position + 1
        while base + ScanFormat.recordHeaderSize <= size {
            let bytes = try file.read(at: base, count: chunk + ScanFormat.recordHeaderSize)
            let found: Int? = bytes.withUnsafeBytes { raw in
                var i = 0
                while i + ScanFormat.recordHeaderSize <= raw.count && i < chunk {
                    if raw.loadUnaligned(fromByteOffset: i, as: UInt32.self).littleEndian == ScanFormat.recordMagic,
                        RecordHeader(parsing: UnsafeRawBufferPointer(rebasing: raw[i...])) != nil
                    {
                        return i
                    }
                    i += 1
                }
                return nil
            }
            if let found { return base + found }
            base += chunk
        }
        return nil
    }
}
