import Foundation
import Hummingbird
import NIOCore
import Recording

/// A zip written front to back into a stream, so a download starts at once and needs no
/// temporary file: entries are stored (the bulk is PNG and already compressed), each followed
/// by a data descriptor with its CRC-32; ZIP64 fields appear where sizes or offsets pass 4 GiB
/// or entries pass 65,535. Readers: every unzip, Python's zipfile, ZIPFoundation.
struct StreamingZip {
    private struct Entry {
        var name: [UInt8]
        var crc: UInt32
        var size: UInt64
        var offset: UInt64
    }

    private var entries: [Entry] = []
    private(set) var written: UInt64 = 0

    private mutating func emit(_ data: Data, _ out: inout any ResponseBodyWriter) async throws {
        try await out.write(ByteBuffer(bytes: data))
        written += UInt64(data.count)
    }

    /// Adds an entry whose bytes come from `next` (nil or empty at the end).
    mutating func add(_ path: String, size: UInt64, to out: inout any ResponseBodyWriter, next: () throws -> Data?) async throws {
        let name = Array(path.utf8)
        let offset = written
        let large = size >= 0xFFFF_FFFF
        var header = ZipBytes()
        header.u32(0x0403_4b50)
        header.u16(45)
        header.u16(0x0808)  // sizes in the descriptor, UTF-8 names
        header.u16(0)  // stored
        header.u16(0); header.u16(0x21)  // 1980-01-01 00:00
        header.u32(0)
        header.u32(large ? 0xFFFF_FFFF : 0); header.u32(large ? 0xFFFF_FFFF : 0)
        header.u16(UInt16(name.count))
        header.u16(large ? 20 : 0)
        header.bytes(name)
        if large { header.u16(1); header.u16(16); header.u64(0); header.u64(0) }
        try await emit(header.data, &out)
        var crc: UInt32 = 0
        var count: UInt64 = 0
        while let piece = try next(), !piece.isEmpty {
            crc = piece.withUnsafeBytes { CRC32.checksum($0, continuing: crc) }
            count += UInt64(piece.count)
            try await emit(piece, &out)
        }
        var descriptor = ZipBytes()
        descriptor.u32(0x0807_4b50)
        descriptor.u32(crc)
        if large { descriptor.u64(count); descriptor.u64(count) } else { descriptor.u32(UInt32(count)); descriptor.u32(UInt32(count)) }
        try await emit(descriptor.data, &out)
        entries.append(Entry(name: name, crc: crc, size: count, offset: offset))
    }

    mutating func add(_ path: String, data: Data, to out: inout any ResponseBodyWriter) async throws {
        var sent = false
        try await add(path, size: UInt64(data.count), to: &out) {
            defer { sent = true }
            return sent ? nil : data
        }
    }

    mutating func add(_ path: String, file: URL, to out: inout any ResponseBodyWriter) async throws {
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.uint64Value ?? 0
        try await add(path, size: size, to: &out) { try handle.read(upToCount: 1 << 20) }
    }

    /// The central directory and its end records.
    mutating func finish(_ out: inout any ResponseBodyWriter) async throws {
        let start = written
        var directory = ZipBytes()
        for entry in entries {
            let bigSize = entry.size >= 0xFFFF_FFFF, bigOffset = entry.offset >= 0xFFFF_FFFF
            var extra = ZipBytes()
            if bigSize { extra.u64(entry.size); extra.u64(entry.size) }
            if bigOffset { extra.u64(entry.offset) }
            directory.u32(0x0201_4b50)
            directory.u16(0x0300 | 45)  // made by Unix, ZIP 4.5
            directory.u16(45)
            directory.u16(0x0808)
            directory.u16(0)
            directory.u16(0); directory.u16(0x21)
            directory.u32(entry.crc)
            directory.u32(bigSize ? 0xFFFF_FFFF : UInt32(entry.size)); directory.u32(bigSize ? 0xFFFF_FFFF : UInt32(entry.size))
            directory.u16(UInt16(entry.name.count))
            directory.u16(extra.data.isEmpty ? 0 : UInt16(extra.data.count + 4))
            directory.u16(0); directory.u16(0); directory.u16(0)
            directory.u32(0o100644 << 16)
            directory.u32(bigOffset ? 0xFFFF_FFFF : UInt32(entry.offset))
            directory.bytes(entry.name)
            if !extra.data.isEmpty { directory.u16(1); directory.u16(UInt16(extra.data.count)); directory.bytes(Array(extra.data)) }
        }
        try await emit(directory.data, &out)
        let size = written - start
        var end = ZipBytes()
        let needs64 = entries.count >= 0xFFFF || start >= 0xFFFF_FFFF || size >= 0xFFFF_FFFF
        if needs64 {
            let record = written
            end.u32(0x0606_4b50); end.u64(44); end.u16(0x0300 | 45); end.u16(45); end.u32(0); end.u32(0)
            end.u64(UInt64(entries.count)); end.u64(UInt64(entries.count)); end.u64(size); end.u64(start)
            end.u32(0x0706_4b50); end.u32(0); end.u64(record); end.u32(1)
        }
        end.u32(0x0605_4b50); end.u16(0); end.u16(0)
        end.u16(needs64 ? 0xFFFF : UInt16(entries.count)); end.u16(needs64 ? 0xFFFF : UInt16(entries.count))
        end.u32(needs64 ? 0xFFFF_FFFF : UInt32(size)); end.u32(needs64 ? 0xFFFF_FFFF : UInt32(start))
        end.u16(0)
        try await emit(end.data, &out)
    }
}

/// Little-endian fields.
private struct ZipBytes {
    var data = Data()
    mutating func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
    mutating func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
    mutating func u64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
    mutating func bytes(_ b: [UInt8]) { data.append(contentsOf: b) }
}
