import Foundation

/// Rewrites a scan file's header without moving any record: the new JSON is padded with JSON
/// white space to the old length, so every offset in the seek index stays right. Used to take
/// the clock time and free-text notes out of a scan before it leaves the device.
public enum ScanHeaderRewrite {
    /// The first bytes of the file at `url` (magic to header checksum) with `change` applied
    /// to its header; the rest of the file is unchanged.
    public static func header(of url: URL, _ change: (inout ScanHeader) -> Void) throws -> Data {
        let file = try BinaryFile(readingAt: url.path)
        let (original, _, end) = try FileHeader.read(from: file)
        let oldBytes = try file.read(at: 0, count: end)
        let length = end - ScanFormat.fileHeaderPrefixSize - 4
        var header = original
        change(&header)
        let encoded = try FileHeader.encode(header)
        let json = encoded[ScanFormat.fileHeaderPrefixSize..<(encoded.count - 4)]
        guard json.count <= length else {
            throw ScanFileError.damagedHeader(path: url.path, reason: "the rewritten header is longer than the original")
        }
        var bytes = Array(oldBytes.prefix(ScanFormat.fileHeaderPrefixSize))
        bytes.append(contentsOf: json)
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: length - json.count))
        let crc = bytes[8...].withUnsafeBytes { CRC32.checksum($0) }
        withUnsafeBytes(of: crc.littleEndian) { bytes.append(contentsOf: $0) }
        return Data(bytes)
    }
}
