import Crypto
import Foundation

/// One line of the audit log: who did what to which session, when and from where.
public struct AuditEntry: Sendable, Hashable {
    public var id: Int64 = 0
    public var at = Date()
    /// `device:NAME`, `researcher:EMAIL`, `admin` or `anonymous`.
    public var actor: String
    /// `list`, `view`, `download`, `download-zip`, `view-mesh`, `sign-in`, `sign-in-failed`, `refused`, …
    public var action: String
    public var sessionID: String?
    public var fileName: String?
    public var detail: String?
    /// The client's address, as the connection or the trusted proxy gives it.
    public var address: String?

    public init(actor: String, action: String, sessionID: String? = nil, fileName: String? = nil, detail: String? = nil, address: String? = nil) {
        self.actor = actor
        self.action = action
        self.sessionID = sessionID
        self.fileName = fileName
        self.detail = detail.map { String($0.prefix(300)) }
        self.address = address
    }
}

/// The audit log is a hash chain: each row stores the ID of the row before it and an HMAC
/// (keyed with the data folder's `audit.key`, see `AuditSeal`) over that row's hash, its own ID
/// and its fields, so a changed or deleted row breaks the chain at that point even when the
/// chain after it was computed again by someone without the key. Writers chain optimistically:
/// each takes the ID after the end, and a unique index on the predecessor lets only one of two
/// concurrent writers take a row's place; the other retries on the new end. Triggers refuse
/// UPDATE and DELETE (and TRUNCATE on PostgreSQL) of the log.
extension Store {
    public func audit(_ entry: AuditEntry) async throws {
        var entry = entry
        for _ in 0..<50 {
            let last = try await database.query("SELECT id, row_hash FROM audit_log ORDER BY id DESC LIMIT 1", []).first
            let previousID = last?["id"].int ?? 0
            let previousHash = last?["row_hash"].text ?? ""
            entry.at = Date()
            entry.id = previousID + 1
            let hash = rowHash(entry, previousID: previousID, previousHash: previousHash)
            do {
                _ = try await database.query(
                    """
                    INSERT INTO audit_log (id, at, actor, action, session_id, file_name, detail, address, prev_id, row_hash)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    [
                        .int(entry.id), .double(entry.at.timeIntervalSince1970), .text(entry.actor), .text(entry.action), SQLValue(entry.sessionID),
                        SQLValue(entry.fileName), SQLValue(entry.detail), SQLValue(entry.address), .int(previousID), .text(hash),
                    ])
                seal?.publish(id: entry.id, hash: hash)
                return
            } catch {
                // Another writer chained to the same row first; chain to the new end.
                try await Task.sleep(for: .milliseconds(Int.random(in: 1...5)))
            }
        }
        throw DatabaseError("the audit log could not be written; check the database")
    }

    /// Compatibility form of `audit(_:)`.
    public func audit(
        actor: String, action: String, sessionID: String?, fileName: String?, detail: String? = nil, address: String? = nil
    ) async throws {
        try await audit(AuditEntry(actor: actor, action: action, sessionID: sessionID, fileName: fileName, detail: detail, address: address))
    }

    /// The row's keyed hash (`k2:` and an HMAC that includes its own ID), or without a seal
    /// the unkeyed one of the first chained version.
    func rowHash(_ entry: AuditEntry, previousID: Int64, previousHash: String) -> String {
        guard let seal else { return Self.rowHash(entry, previousID: previousID, previousHash: previousHash) }
        return seal.hash([
            "v2", previousHash, String(previousID), String(entry.id), String(entry.at.timeIntervalSince1970.bitPattern, radix: 16), entry.actor,
            entry.action, entry.sessionID, entry.fileName, entry.detail, entry.address,
        ])
    }

    static func rowHash(_ entry: AuditEntry, previousID: Int64, previousHash: String) -> String {
        let fields: [String?] = [
            "v1", previousHash, String(previousID), String(entry.at.timeIntervalSince1970.bitPattern, radix: 16), entry.actor, entry.action,
            entry.sessionID, entry.fileName, entry.detail, entry.address,
        ]
        let data = (try? JSONEncoder().encode(fields)) ?? Data()
        return SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    /// The audit log, newest first.
    public func auditLog(limit: Int = 100) async throws -> [AuditEntry] {
        try await database.query("SELECT * FROM audit_log ORDER BY id DESC LIMIT ?", [.int(Int64(max(1, limit)))]).map(Self.entry)
    }

    static func entry(_ row: SQLRow) -> AuditEntry {
        var entry = AuditEntry(
            actor: row["actor"].text ?? "", action: row["action"].text ?? "", sessionID: row["session_id"].text, fileName: row["file_name"].text,
            detail: row["detail"].text, address: row["address"].text)
        entry.id = row["id"].int ?? 0
        entry.at = Date(timeIntervalSince1970: row["at"].double ?? 0)
        return entry
    }

    /// A row's ID and stored hash, nil when there is no such row.
    public func auditLog(containing id: Int64) async throws -> (id: Int64, hash: String)? {
        try await database.query("SELECT id, row_hash FROM audit_log WHERE id = ?", [.int(id)]).first.map {
            ($0["id"].int ?? 0, $0["row_hash"].text ?? "")
        }
    }

    /// What `audit verify` found.
    public struct AuditVerification: Sendable, Equatable {
        /// Rows in the chain, and rows written before the log was chained.
        public var chained = 0
        public var unchained = 0
        /// The first row where the chain breaks, and why; nil when it holds.
        public var brokenAt: Int64?
        public var problem: String?
        /// Rows whose hash is keyed.
        public var keyed = 0
        /// The last row's ID and hash: kept elsewhere, they show later whether rows were cut off the end.
        public var headID: Int64 = 0
        public var headHash = ""
    }

    /// Walks the whole chain in ID order, and checks that it reaches the head published in the
    /// data folder: rows written since the key exists must verify with it, none may be missing
    /// at the start or the end.
    public func verifyAudit() async throws -> AuditVerification {
        let result = try await walkAudit()
        guard result.brokenAt == nil, let head = seal?.published() else { return result }
        guard let stored = try await auditLog(containing: head.id), stored.hash == head.hash else {
            return broken(
                result, at: head.id, "the row the data folder names as the newest (\(head.id)) is missing or was rewritten: rows were cut off the end"
            )
        }
        return result
    }

    private func walkAudit() async throws -> AuditVerification {
        var result = AuditVerification()
        let firstKeyed = seal?.published()?.firstKeyed
        var previousID: Int64 = 0
        var previousHash = ""
        var afterID: Int64 = -1
        while true {
            let rows = try await database.query("SELECT * FROM audit_log WHERE id > ? ORDER BY id LIMIT 5000", [.int(afterID)])
            guard !rows.isEmpty else { break }
            for row in rows {
                let entry = Self.entry(row)
                afterID = entry.id
                if let firstKeyed, entry.id >= firstKeyed, !(row["row_hash"].text ?? "").hasPrefix("k2:") {
                    return broken(result, at: entry.id, "the row was not written with the audit key: it was inserted or changed by someone else")
                }
                guard let stored = row["row_hash"].text else {
                    if result.chained == 0 {
                        // Written before the log was chained; the first chained row links to it.
                        result.unchained += 1
                        previousID = entry.id
                        continue
                    }
                    return broken(result, at: entry.id, "the row has no hash")
                }
                let link = row["prev_id"].int ?? -1
                guard link == previousID else {
                    return broken(result, at: entry.id, "the row follows row \(link), but the row before it is \(previousID): rows were deleted")
                }
                let keyed = stored.hasPrefix("k2:")
                let expected =
                    keyed
                    ? rowHash(entry, previousID: previousID, previousHash: previousHash)
                    : Self.rowHash(entry, previousID: previousID, previousHash: previousHash)
                guard !keyed || seal != nil else {
                    return broken(result, at: entry.id, "the row is keyed, but the data folder's audit.key is not at hand")
                }
                guard expected == stored else {
                    return broken(result, at: entry.id, "the row's content does not match its hash: it was changed")
                }
                if keyed { result.keyed += 1 }
                result.chained += 1
                previousID = entry.id
                previousHash = stored
            }
        }
        if let firstKeyed, result.chained == 0 {
            return broken(
                result, at: firstKeyed, "the log holds no keyed rows, but the data folder shows they were written from row \(firstKeyed) on")
        }
        result.headID = previousID
        result.headHash = previousHash
        return result
    }

    private func broken(_ result: AuditVerification, at id: Int64, _ problem: String) -> AuditVerification {
        var result = result
        result.brokenAt = id
        result.problem = problem
        return result
    }
}

/// Audit rows of frequent reads (listings and views) are written beside the answer instead of
/// before it: a listing never waits for the database's write lock behind uploads. `flush()`
/// waits for every row written so far (tests; shutting down).
final class AuditTrail: Sendable {
    private let store: Store
    private let pending = Locked<[UUID: Task<Void, Never>]>([:])

    init(store: Store) { self.store = store }

    func later(_ entry: AuditEntry) {
        let id = UUID()
        let store = self.store
        let task = Task { [pending] in
            _ = try? await store.audit(entry)
            pending.withLock { $0[id] = nil }
        }
        pending.withLock { $0[id] = task }
    }

    func flush() async {
        for task in pending.withLock({ Array($0.values) }) { await task.value }
    }
}
