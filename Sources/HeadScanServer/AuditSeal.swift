import Crypto
import Foundation

/// What keeps the audit log honest against whoever holds the database: every row's hash is
/// keyed with a secret kept in the data folder (`audit.key`, the service user's alone), never
/// in the database, so rows changed with the chain recomputed no longer verify; and the newest
/// head is written beside it (`audit-head.json`), so rows cut off the end are found without a
/// head kept by hand.
public struct AuditSeal: Sendable {
    /// The key's bytes (SymmetricKey is not Sendable).
    let keyBytes: Data
    let headURL: URL
    private static let lock = NSLock()

    /// The newest row written, and the first row written with the key.
    public struct Head: Codable, Sendable, Equatable {
        public var firstKeyed: Int64
        public var id: Int64
        public var hash: String
    }

    /// The seal of the data folder `folder`; its key is made on first use.
    public static func open(folder: URL) throws -> AuditSeal {
        let keyURL = folder.appendingPathComponent("audit.key")
        if !FileManager.default.fileExists(atPath: keyURL.path) {
            let fresh = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
            // Created only if absent: two processes starting together keep the same key.
            _ = FileManager.default.createFile(atPath: keyURL.path, contents: fresh, attributes: [.posixPermissions: 0o600])
        }
        let bytes = try Data(contentsOf: keyURL)
        guard bytes.count == 32 else {
            throw DatabaseError("\(keyURL.lastPathComponent) in the data folder is damaged (it must hold 32 bytes); restore it from the backup")
        }
        return AuditSeal(keyBytes: bytes, headURL: folder.appendingPathComponent("audit-head.json"))
    }

    func hash(_ fields: [String?]) -> String {
        let data = (try? JSONEncoder().encode(fields)) ?? Data()
        return "k2:" + HMAC<SHA256>.authenticationCode(for: data, using: SymmetricKey(data: keyBytes)).map { String(format: "%02x", $0) }.joined()
    }

    /// The head written last, nil before the first keyed row.
    public func published() -> Head? {
        (try? Data(contentsOf: headURL)).flatMap { try? JSONDecoder().decode(Head.self, from: $0) }
    }

    /// Notes a row as the newest, unless a newer one was noted already.
    func publish(id: Int64, hash: String) {
        Self.lock.lock()
        defer { Self.lock.unlock() }
        let current = published()
        guard id > (current?.id ?? 0) else { return }
        let head = Head(firstKeyed: current?.firstKeyed ?? id, id: id, hash: hash)
        try? JSONEncoder().encode(head).write(to: headURL, options: .atomic)
        try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: headURL.path)
    }
}
