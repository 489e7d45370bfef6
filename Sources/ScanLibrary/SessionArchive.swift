import Foundation
import Recording

/// A session folder packed into one zip file (stored, not compressed: the scan's colour and
/// depth are compressed already), to share or hand over in one piece. Files stream through in
/// blocks, so a scan of any size packs in bounded memory.
///
/// Layout: for each file a local header with general-purpose flag bit 3 (sizes and CRC-32 in a
/// data descriptor after the data), then the central directory and its end record; names are
/// `FOLDER/FILE`, UTF-8. Files up to 4 GiB each (plain zip, no ZIP64).
public enum SessionArchive {
    /// Why a session cannot be packed.
    public enum Failure: Error, Equatable, CustomStringConvertible, LocalizedError {
        case tooLarge(file: String)
        case io(String)

        public var description: String {
            switch self {
            case .tooLarge(let file): "\(file) is larger than 4 GiB, more than a zip file holds; copy the session folder instead"
            case .io(let why): "cannot write the zip file: \(why)"
            }
        }

        public var errorDescription: String? { description }
    }

    /// Packs `session` into a zip file at `url` (replaced if present); returns its URL.
    @discardableResult
    public static func write(_ session: ScanSession, to url: URL) throws(Failure) -> URL {
        do {
            let names = try FileManager.default.contentsOfDirectory(atPath: session.url.path)
                .filter { !$0.hasPrefix(".") }.sorted()
            FileManager.default.createFile(atPath: url.path, contents: nil)
            let out = try FileHandle(forWritingTo: url)
            defer { try? out.close() }
            var central = Data()
            var offset: UInt64 = 0
            for name in names {
                let entry = try append(session.url.appendingPathComponent(name), as: "\(session.name.rawValue)/\(name)", to: out, at: offset)
                central.append(entry.central)
                offset += entry.written
            }
            var end = Data()
            end.le32(0x0605_4B50); end.le16(0); end.le16(0)
            end.le16(names.count); end.le16(names.count)
            end.le32(central.count); end.le32(Int(offset)); end.le16(0)
            try out.write(contentsOf: central + end)
            return url
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .io("\(error.localizedDescription)")
        }
    }

    private static func append(_ file: URL, as name: String, to out: FileHandle, at offset: UInt64) throws -> (central: Data, written: UInt64) {
        let nameBytes = Data(name.utf8)
        var local = Data()
        local.le32(0x0403_4B50); local.le16(20); local.le16(0x0808); local.le16(0)
        local.le16(0); local.le16(0x21)  // time 00:00, date 1980-01-01: a stored archive needs no clock
        local.le32(0); local.le32(0); local.le32(0)
        local.le16(nameBytes.count); local.le16(0)
        try out.write(contentsOf: local + nameBytes)
        let input = try FileHandle(forReadingFrom: file)
        defer { try? input.close() }
        var crc: UInt32 = 0
        var size: UInt64 = 0
        while let block = try input.read(upToCount: 1 << 20), !block.isEmpty {
            crc = block.withUnsafeBytes { CRC32.checksum($0, continuing: crc) }
            size += UInt64(block.count)
            guard size < UInt64(UInt32.max) else { throw Failure.tooLarge(file: file.lastPathComponent) }
            try out.write(contentsOf: block)
        }
        var descriptor = Data()
        descriptor.le32(0x0807_4B50); descriptor.le32(Int(crc)); descriptor.le32(Int(size)); descriptor.le32(Int(size))
        try out.write(contentsOf: descriptor)
        var central = Data()
        central.le32(0x0201_4B50); central.le16(20); central.le16(20); central.le16(0x0808); central.le16(0)
        central.le16(0); central.le16(0x21)
        central.le32(Int(crc)); central.le32(Int(size)); central.le32(Int(size))
        central.le16(nameBytes.count); central.le16(0); central.le16(0); central.le16(0); central.le16(0)
        central.le32(0); central.le32(Int(offset))
        central.append(nameBytes)
        return (central, UInt64(local.count + nameBytes.count) + size + UInt64(descriptor.count))
    }
}

private extension Data {
    mutating func le16(_ v: Int) { Swift.withUnsafeBytes(of: UInt16(truncatingIfNeeded: v).littleEndian) { append(contentsOf: $0) } }
    mutating func le32(_ v: Int) { Swift.withUnsafeBytes(of: UInt32(truncatingIfNeeded: v).littleEndian) { append(contentsOf: $0) } }
}
