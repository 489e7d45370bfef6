import Crypto
import Foundation
import HummingbirdBcrypt

/// bcrypt for researchers' passwords, and a short-lived memory of checks that succeeded, so that
/// HTTP Basic requests do not each pay for a bcrypt round (see `PasswordChecks`).
enum PasswordHashing {
    static func hash(_ password: String, cost: UInt8) -> String {
        Bcrypt.hash(password, cost: cost)
    }

    static func verify(_ password: String, hash: String) -> Bool {
        Bcrypt.verify(password, hash: hash)
    }
}

/// Remembers for a minute which (stored hash, password) pairs verified; keyed by a SHA-256 of
/// both, so no password is kept in memory.
final class VerifiedCredentials: Sendable {
    private let entries = Locked<[String: Date]>([:])
    private let lifetime: TimeInterval = 60

    private static func key(_ password: String, _ hash: String) -> String {
        SHA256.hash(data: Data((hash + "\u{0}" + password).utf8)).map { String(format: "%02x", $0) }.joined()
    }

    func contains(_ password: String, hash: String) -> Bool {
        let now = Date()
        return entries.withLock { $0[Self.key(password, hash)].map { $0 > now } ?? false }
    }

    func remember(_ password: String, hash: String) {
        let now = Date()
        entries.withLock { entries in
            if entries.count > 10_000 { entries = entries.filter { $0.value > now } }
            entries[Self.key(password, hash)] = now.addingTimeInterval(lifetime)
        }
    }
}

/// A value behind a lock (Synchronization's Mutex needs macOS 15, the package supports 14).
final class Locked<Value: Sendable>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) { self.value = value }

    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
