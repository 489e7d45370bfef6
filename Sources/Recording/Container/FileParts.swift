import Foundation

/// The file header: magic, version, flags and the JSON-encoded `ScanHeader`, checksummed.
enum FileHeader {
    static func encode(_ header: ScanHeader) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        let json = Array(try encoder.encode(header))
        var writer = ByteWriter(capacity: json.count + 20)
        writer.append(contentsOf: ScanFormat.magic)
        writer.append(ScanFormat.version)
        writer.append(UInt16(0))
        writer.append(UInt32(json.count))
        writer.append(contentsOf: json)
        let crc = writer.bytes[8...].withUnsafeBytes { CRC32.checksum($0) }
        writer.append(crc)
        return writer.bytes
    }

    /// Reads the header from the file; returns it with the offset of the first record.
    static func read(from file: BinaryFile) throws -> (header: ScanHeader, version: Int, end: Int) {
        let prefix = try file.read(at: 0, count: ScanFormat.fileHeaderPrefixSize)
        // A file cut inside the magic is still recognisably ours if what is there matches.
        let magicPart = Array(prefix.prefix(ScanFormat.magic.count))
        guard !prefix.isEmpty, magicPart == Array(ScanFormat.magic.prefix(magicPart.count)) else {
            throw ScanFileError.notAScan(path: file.path)
        }
        guard prefix.count == ScanFormat.fileHeaderPrefixSize else {
            throw ScanFileError.truncatedHeader(path: file.path)
        }
        let (version, length) = prefix.withUnsafeBytes { raw in
            (
                raw.loadUnaligned(fromByteOffset: 8, as: UInt16.self).littleEndian,
                Int(raw.loadUnaligned(fromByteOffset: 12, as: UInt32.self).littleEndian)
            )
        }
        guard version <= ScanFormat.version else {
            throw ScanFileError.newerVersion(
                path: file.path, version: Int(version), supported: Int(ScanFormat.version))
        }
        guard length <= ScanFormat.maximumHeaderSize else {
            throw ScanFileError.damagedHeader(path: file.path, reason: "header length \(length) is implausible")
        }
        let rest = try file.read(at: ScanFormat.fileHeaderPrefixSize, count: length + 4)
        guard rest.count == length + 4 else { throw ScanFileError.truncatedHeader(path: file.path) }
        let stored = rest[length...].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self).littleEndian }
        let computed = CRC32.checksum(Array(rest[..<length]), continuing: CRC32.checksum(Array(prefix[8...])))
        guard computed == stored else {
            throw ScanFileError.damagedHeader(path: file.path, reason: "checksum mismatch")
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            let header = try decoder.decode(ScanHeader.self, from: Data(rest[..<length]))
            return (header, Int(version), ScanFormat.fileHeaderPrefixSize + length + 4)
        } catch {
            throw ScanFileError.damagedHeader(path: file.path, reason: "\(error)")
        }
    }
}

/// One frame's place in the file, as stored in the seek index.
struct IndexEntry: Equatable {
    var offset: UInt64
    var timestamp: Double

    static func encode(_ entries: [IndexEntry]) -> [UInt8] {
        var writer = ByteWriter(capacity: 4 + entries.count * 16)
        writer.append(UInt32(entries.count))
        for entry in entries {
            writer.append(entry.offset)
            writer.append(entry.timestamp)
        }
        return writer.bytes
    }

    static func decode(_ payload: [UInt8]) -> [IndexEntry]? {
        payload.withUnsafeBytes { raw in
            var reader = ByteReader(raw)
            guard let count = try? reader.read(UInt32.self), Int(count) * 16 == reader.remaining else {
                return nil
            }
            return (0..<Int(count)).map { _ in
                IndexEntry(offset: try! reader.read(UInt64.self), timestamp: try! reader.readDouble())
            }
        }
    }
}

/// The last 16 bytes of a closed file: where the index record starts.
enum Trailer {
    static func encode(indexOffset: UInt64) -> [UInt8] {
        var writer = ByteWriter(capacity: ScanFormat.trailerSize)
        writer.append(indexOffset)
        writer.append(ScanFormat.trailerMagic)
        writer.append(CRC32.checksum(writer.bytes))
        return writer.bytes
    }

    static func decode(_ bytes: [UInt8]) -> UInt64? {
        guard bytes.count == ScanFormat.trailerSize else { return nil }
        return bytes.withUnsafeBytes { raw in
            let offset = raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self).littleEndian
            let magic = raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self).littleEndian
            let crc = raw.loadUnaligned(fromByteOffset: 12, as: UInt32.self).littleEndian
            let computed = CRC32.checksum(UnsafeRawBufferPointer(rebasing: raw[0..<12]))
            return magic == ScanFormat.trailerMagic && crc == computed ? offset : nil
        }
    }
}
