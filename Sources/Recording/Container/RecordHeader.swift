/// The 24-byte header in front of every record; see `docs/scan-format.md`.
struct RecordHeader: Equatable {
    var kind: UInt8
    /// Frame number for frame records, 0 for the index.
    var sequence: UInt32
    var payloadLength: UInt32
    var payloadCRC: UInt32

    /// The header for `payload`.
    init(kind: RecordKind, sequence: UInt32, payload: [UInt8]) {
        self.kind = kind.rawValue
        self.sequence = sequence
        payloadLength = UInt32(payload.count)
        payloadCRC = CRC32.checksum(payload)
    }

    /// The header's bytes, its own checksum last.
    var bytes: [UInt8] {
        var writer = ByteWriter(capacity: ScanFormat.recordHeaderSize)
        writer.append(ScanFormat.recordMagic)
        writer.append(kind)
        writer.append(UInt8(0))
        writer.append(UInt16(0))
        writer.append(sequence)
        writer.append(payloadLength)
        writer.append(payloadCRC)
        writer.append(writer.bytes.withUnsafeBytes { CRC32.checksum($0) })
        return writer.bytes
    }

    /// Parses a header from 24 bytes; nil when the magic or the checksum is wrong.
    init?(parsing raw: UnsafeRawBufferPointer) {
        guard raw.count >= ScanFormat.recordHeaderSize else { return nil }
        var reader = ByteReader(raw)
        guard (try? reader.read(UInt32.self)) == ScanFormat.recordMagic else { return nil }
        let crc = CRC32.checksum(UnsafeRawBufferPointer(rebasing: raw[0..<20]))
        guard
            let kind = try? reader.read(UInt8.self),
            (try? reader.read(UInt8.self)) != nil, (try? reader.read(UInt16.self)) != nil,
            let sequence = try? reader.read(UInt32.self),
            let length = try? reader.read(UInt32.self),
            let payloadCRC = try? reader.read(UInt32.self),
            (try? reader.read(UInt32.self)) == crc,
            length <= ScanFormat.maximumPayloadSize
        else { return nil }
        self.kind = kind
        self.sequence = sequence
        payloadLength = length
        self.payloadCRC = payloadCRC
    }
}
