import Crypto
import Foundation

/// SHA-256 fed piece by piece, in lower-case hex.
struct StreamingSHA256 {
    private var hasher = SHA256()
    mutating func update(_ data: Data) { hasher.update(data: data) }
    func finalize() -> String { hasher.finalize().map { String(format: "%02x", $0) }.joined() }
}
