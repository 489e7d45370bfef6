import Crypto
import Foundation
import Upload

/// The metadata of the service on SQLite or PostgreSQL alike: one store per kind of record,
/// all over the same database, and the audit log (see `AuditLog.swift`).
public struct Store: Sendable {
    public let database: any SQLDatabase
    /// The key and published head of the audit chain (see `AuditSeal`); the service always has
    /// one, a bare store (some tests) chains unkeyed.
    public var seal: AuditSeal?

    public let devices: DeviceStore
    public let researchers: ResearcherStore
    public let webSessions: WebSessionStore
    public let signInAttempts: SignInAttemptStore
    public let uploads: UploadStore
    public let sessions: SessionStore
    public let jobs: JobStore

    public init(database: any SQLDatabase, seal: AuditSeal? = nil) {
        self.database = database
        self.seal = seal
        devices = DeviceStore(database: database)
        researchers = ResearcherStore(database: database)
        webSessions = WebSessionStore(database: database)
        signInAttempts = SignInAttemptStore(database: database)
        uploads = UploadStore(database: database)
        sessions = SessionStore(database: database)
        jobs = JobStore(database: database)
    }

    static func now() -> Double { Date().timeIntervalSince1970 }

    /// SHA-256 of a secret token: tokens are random and long, so a plain hash is enough and the
    /// database never holds a usable token.
    static func tokenHash(_ token: String) -> String { Digest.sha256(Data(token.utf8)) }

    /// A new random token with a readable prefix.
    static func newToken(prefix: String) -> String {
        let bytes = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        return prefix
            + bytes.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Rows per table: tests compare it before and after requests that must change nothing.
    public func tableCounts() async throws -> [String: Int64] {
        var counts: [String: Int64] = [:]
        for table in [
            "devices", "researchers", "uploads", "chunks", "sessions", "session_files", "jobs", "audit_log", "web_sessions", "sign_in_failures",
        ] {
            counts[table] = try await database.query("SELECT COUNT(*) AS n FROM \(table)", []).first?["n"].int ?? -1
        }
        return counts
    }
}
