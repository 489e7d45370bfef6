import Foundation

// CryptoKit on Apple platforms (no package to build for the app), swift-crypto elsewhere:
// the same API.
#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif

extension Sequence where Element == UInt8 {
    /// Lower-case hex.
    var hexString: String {
        var text = ""
        for byte in self {
            text += String(byte >> 4, radix: 16) + String(byte & 0xF, radix: 16)
        }
        return text
    }
}

/// SHA-256 helpers in lower-case hex.
public enum Digest {
    /// The SHA-256 of `data`.
    public static func sha256(_ data: Data) -> String {
        SHA256.hash(data: data).hexString
    }

    /// The SHA-256 of a file, read in pieces so that large scans need little memory.
    public static func sha256(fileAt url: URL) throws -> (digest: String, size: Int64) {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var hasher = SHA256()
        var size: Int64 = 0
        while let piece = try handle.read(upToCount: 1 << 20), !piece.isEmpty {
            hasher.update(data: piece)
            size += Int64(piece.count)
        }
        return (hasher.finalize().hexString, size)
    }
}

/// SHA-256 over pieces, in lower-case hex.
struct StreamingHasher {
    private var hasher = SHA256()
    mutating func update(_ data: Data) { hasher.update(data: data) }
    func finalize() -> String { hasher.finalize().hexString }
}
