import Crypto
import Foundation
import Upload

/// A device that uploads sessions (one phone, one clinic's computer).
public struct Device: Sendable, Hashable {
    public var id: Int64
    public var name: String
    public var site: String
}

/// A device as `device list` shows it.
public struct DeviceListing: Sendable, Hashable {
    public var name: String
    public var site: String
    public var createdAt: Date
    public var revokedAt: Date?
    public var expiresAt: Date?
    public var sessions: Int

    /// `active`, `revoked` or `expired`.
    public var state: String {
        if revokedAt != nil { return "revoked" }
        if let expiresAt, expiresAt <= Date() { return "expired" }
        return "active"
    }
}

/// What a researcher may do.
public enum Role: String, Sendable, CaseIterable {
    /// Lists sessions and sees their values.
    case viewer
    /// Also downloads files and datasets.
    case downloader
}

/// A researcher's account.
public struct Researcher: Sendable, Hashable {
    public var id: Int64
    public var email: String
    public var passwordHash: String
    public var role: Role
}

extension SQLRow {
    /// The announced bytes of an upload row's manifest.
    var manifestBytes: Int64? {
        guard let text = self["manifest"].text, let files = try? JSONDecoder().decode([ManifestFile].self, from: Data(text.utf8)) else { return nil }
        return files.reduce(0) { $0 + max(0, $1.size) }
    }
}

/// An upload in progress or finished.
public struct UploadRecord: Sendable, Hashable {
    public var id: String
    public var deviceID: Int64
    public var sessionName: String
    public var manifest: [ManifestFile]
    public var chunkSize: Int
    public var state: UploadStatus.State
    public var sessionID: String?
}

/// Filters of the session listing; nil means any.
public struct SessionFilter: Sendable, Hashable {
    public var site: String?
    /// First and last day, `yyyy-MM-dd`, of the recording.
    public var from: String?
    public var to: String?
    public var measured: Bool?
    public var cvaiMin: Double?
    public var cvaiMax: Double?
    public var ratingMin: Int?
    public var ratingMax: Int?
    /// Only this device's sessions.
    public var deviceID: Int64?
    public var limit = 1000

    public init() {}
}

/// The values read from a session's documents when it arrives or is processed.
public struct SessionValues: Sendable, Hashable, Codable {
    public var measured = false
    public var cvai: Double?
    public var ci: Double?
    public var circumferenceMM: Double?
    public var rating: Int?

    public init() {}

    /// These values with those `other` has.
    func merging(_ other: SessionValues) -> SessionValues {
        var merged = self
        if other.measured {
            merged.measured = true
            merged.cvai = other.cvai
            merged.ci = other.ci
            merged.circumferenceMM = other.circumferenceMM
        }
        merged.rating = other.rating ?? rating
        return merged
    }
}

/// A processing job taken by a worker.
public struct Job: Sendable, Hashable {
    public var id: Int64
    public var sessionID: String
    public var attempts: Int
}

/// The metadata of the service: devices, researchers, uploads, sessions, jobs and the audit log,
/// on SQLite or PostgreSQL alike.
public struct Store: Sendable {
    public let database: any SQLDatabase
    /// The key and published head of the audit chain (see `AuditSeal`); the service always has
    /// one, a bare store (some tests) chains unkeyed.
    public var seal: AuditSeal?

    public init(database: any SQLDatabase, seal: AuditSeal? = nil) {
        self.database = database
        self.seal = seal
    }

    static func now() -> Double { Date().timeIntervalSince1970 }

    /// SHA-256 of a secret token: tokens are random and long, so a plain hash is enough and the
    /// database never holds a usable token.
    static func tokenHash(_ token: String) -> String { Digest.sha256(Data(token.utf8)) }

    /// A new random token with a readable prefix.
    static func newToken(prefix: String) -> String {
        let bytes = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        return prefix + bytes.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    // MARK: devices and researchers

    /// Adds a device and returns its token, which is shown only this once; `expiresAt` ends
    /// the token on its own.
    public func addDevice(name: String, site: String, expiresAt: Date? = nil) async throws -> (Device, token: String) {
        guard (1...100).contains(name.count), (1...100).contains(site.count) else {
            throw DatabaseError("a device name and a site name have 1 to 100 characters")
        }
        if try await !database.query("SELECT id FROM devices WHERE name = ?", [.text(name)]).isEmpty {
            throw DatabaseError("a device named \(name) exists already; choose another name")
        }
        let token = Self.newToken(prefix: "hsd_")
        let rows = try await database.query(
            "INSERT INTO devices (name, site, token_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?) RETURNING id",
            [.text(name), .text(site), .text(Self.tokenHash(token)), .double(Self.now()), SQLValue(expiresAt?.timeIntervalSince1970)])
        return (Device(id: rows.first?["id"].int ?? 0, name: name, site: site), token)
    }

    /// The device a token belongs to, unless it was revoked or has expired.
    public func device(token: String) async throws -> Device? {
        let rows = try await database.query(
            "SELECT id, name, site FROM devices WHERE token_hash = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)",
            [.text(Self.tokenHash(token)), .double(Self.now())])
        return rows.first.map { Device(id: $0["id"].int ?? 0, name: $0["name"].text ?? "", site: $0["site"].text ?? "") }
    }

    /// Every device with its state, by name.
    public func devices() async throws -> [DeviceListing] {
        try await database.query(
            """
            SELECT d.name, d.site, d.created_at, d.revoked_at, d.expires_at, (SELECT COUNT(*) FROM sessions s WHERE s.device_id = d.id) AS n
            FROM devices d ORDER BY d.name
            """, []).map {
            DeviceListing(
                name: $0["name"].text ?? "", site: $0["site"].text ?? "", createdAt: Date(timeIntervalSince1970: $0["created_at"].double ?? 0),
                revokedAt: $0["revoked_at"].double.map(Date.init(timeIntervalSince1970:)),
                expiresAt: $0["expires_at"].double.map(Date.init(timeIntervalSince1970:)), sessions: Int($0["n"].int ?? 0))
        }
    }

    /// Ends a device's token at once (a lost or stolen phone); its open uploads are dropped, its
    /// finished sessions stay.
    public func revokeDevice(name: String) async throws {
        guard let id = try await database.query("SELECT id FROM devices WHERE name = ? AND revoked_at IS NULL", [.text(name)]).first?["id"].int else {
            throw DatabaseError("no active device is named \(name); `headscan-server device list` shows them")
        }
        _ = try await database.transaction([
            SQLStatement("UPDATE devices SET revoked_at = ? WHERE id = ?", [.double(Self.now()), .int(id)]),
            SQLStatement("DELETE FROM chunks WHERE upload_id IN (SELECT id FROM uploads WHERE device_id = ? AND state = 'open')", [.int(id)]),
            SQLStatement("DELETE FROM uploads WHERE device_id = ? AND state = 'open'", [.int(id)]),
        ])
    }

    /// Gives an active device a new token; the old one fails at once. `expiresAt` replaces the
    /// expiry (nil: none).
    /// A new token for the device; without `expiresAt` it expires when the old one would have
    /// (a token with an end never becomes one without).
    public func rotateDevice(name: String, expiresAt: Date? = nil) async throws -> String {
        let token = Self.newToken(prefix: "hsd_")
        let rows = try await database.query(
            """
            UPDATE devices SET token_hash = ?, expires_at = COALESCE(?, expires_at)
            WHERE name = ? AND revoked_at IS NULL AND (? = 1 OR expires_at IS NULL OR expires_at > ?) RETURNING id
            """,
            [.text(Self.tokenHash(token)), SQLValue(expiresAt?.timeIntervalSince1970), .text(name), .int(expiresAt == nil ? 0 : 1), .double(Self.now())])
        guard !rows.isEmpty else {
            throw DatabaseError("no active device is named \(name) (a revoked device gets a new name with `device add`; an expired one needs --expires-in-days)")
        }
        return token
    }

    /// Adds a researcher; the password is hashed with bcrypt.
    public func addResearcher(email: String, password: String, role: Role, cost: UInt8 = 12) async throws -> Researcher {
        let email = email.lowercased()
        guard Self.isPlainAddress(email) else {
            throw DatabaseError("\(LogText.label(email)) is not an e-mail address (letters, digits and . _ % + - before and after one @, no spaces)")
        }
        try Self.checkPassword(password)
        if try await researcher(email: email) != nil {
            throw DatabaseError("a researcher with the address \(email) exists already")
        }
        let hash = PasswordHashing.hash(password, cost: cost)
        let rows = try await database.query(
            "INSERT INTO researchers (email, password_hash, role, created_at) VALUES (?, ?, ?, ?) RETURNING id",
            [.text(email), .text(hash), .text(role.rawValue), .double(Self.now())])
        return Researcher(id: rows.first?["id"].int ?? 0, email: email, passwordHash: hash, role: role)
    }

    public func researcher(email: String) async throws -> Researcher? {
        let rows = try await database.query("SELECT * FROM researchers WHERE email = ?", [.text(email.lowercased())])
        return rows.first.map(Self.researcher)
    }

    /// Every researcher account, by address.
    public func researchers() async throws -> [Researcher] {
        try await database.query("SELECT * FROM researchers ORDER BY email", []).map(Self.researcher)
    }

    /// Deletes an account and signs it out everywhere.
    public func removeResearcher(email: String) async throws {
        guard let researcher = try await researcher(email: email) else {
            throw DatabaseError("no researcher has the address \(email); `headscan-server researcher list` shows them")
        }
        _ = try await database.transaction([
            SQLStatement("DELETE FROM web_sessions WHERE researcher_id = ?", [.int(researcher.id)]),
            SQLStatement("DELETE FROM sign_in_failures WHERE subject = ?", [.text("account:" + researcher.email)]),
            SQLStatement("DELETE FROM researchers WHERE id = ?", [.int(researcher.id)]),
        ])
    }

    /// Sets a new password and signs the account out everywhere.
    public func setPassword(email: String, password: String, cost: UInt8 = 12) async throws {
        try Self.checkPassword(password)
        guard let researcher = try await researcher(email: email) else {
            throw DatabaseError("no researcher has the address \(email); `headscan-server researcher list` shows them")
        }
        _ = try await database.transaction([
            SQLStatement("UPDATE researchers SET password_hash = ? WHERE id = ?", [.text(PasswordHashing.hash(password, cost: cost)), .int(researcher.id)]),
            SQLStatement("DELETE FROM web_sessions WHERE researcher_id = ?", [.int(researcher.id)]),
        ])
    }

    static func checkPassword(_ password: String) throws {
        guard password.count >= 10, password.utf8.count <= 72 else {
            throw DatabaseError("a password needs at least 10 characters (and at most 72 bytes)")
        }
        guard Set(password.filter { !$0.isWhitespace }).count >= 4 else {
            throw DatabaseError("a password needs at least 4 different characters that are not spaces")
        }
    }

    /// An address an account may have: ASCII letters, digits and `._%+-`, one `@`, a dot in the
    /// domain; no spaces, no markup, nothing that looks like another account.
    static func isPlainAddress(_ email: String) -> Bool {
        (3...200).contains(email.utf8.count) && email.wholeMatch(of: /[a-z0-9._%+-]+@[a-z0-9-]+(\.[a-z0-9-]+)+/) != nil
    }

    static func researcher(_ row: SQLRow) -> Researcher {
        Researcher(
            id: row["id"].int ?? 0, email: row["email"].text ?? "", passwordHash: row["password_hash"].text ?? "",
            role: Role(rawValue: row["role"].text ?? "") ?? .viewer)
    }

    /// A sign-in cookie's token for a researcher, valid for `lifetime` seconds.
    public func createWebSession(researcherID: Int64, lifetime: Double = 8 * 3600) async throws -> String {
        let token = Self.newToken(prefix: "hsw_")
        _ = try await database.transaction([
            SQLStatement("DELETE FROM web_sessions WHERE expires_at < ?", [.double(Self.now())]),
            SQLStatement(
                "INSERT INTO web_sessions (token_hash, researcher_id, expires_at) VALUES (?, ?, ?)",
                [.text(Self.tokenHash(token)), .int(researcherID), .double(Self.now() + lifetime)]),
        ])
        return token
    }

    public func researcher(webToken: String) async throws -> Researcher? {
        let rows = try await database.query(
            "SELECT r.* FROM web_sessions w JOIN researchers r ON r.id = w.researcher_id WHERE w.token_hash = ? AND w.expires_at > ?",
            [.text(Self.tokenHash(webToken)), .double(Self.now())])
        return rows.first.map(Self.researcher)
    }

    public func deleteWebSession(_ token: String) async throws {
        _ = try await database.query("DELETE FROM web_sessions WHERE token_hash = ?", [.text(Self.tokenHash(token))])
    }

    // MARK: uploads

    static func upload(_ row: SQLRow) -> UploadRecord? {
        guard let manifestText = row["manifest"].text,
            let manifest = try? JSONDecoder().decode([ManifestFile].self, from: Data(manifestText.utf8))
        else { return nil }
        return UploadRecord(
            id: row["id"].text ?? "", deviceID: row["device_id"].int ?? 0, sessionName: row["session_name"].text ?? "", manifest: manifest,
            chunkSize: Int(row["chunk_size"].int ?? 0), state: UploadStatus.State(rawValue: row["state"].text ?? "") ?? .open,
            sessionID: row["session_id"].text)
    }

    public func upload(id: String) async throws -> UploadRecord? {
        try await database.query("SELECT * FROM uploads WHERE id = ?", [.text(id)]).first.flatMap(Self.upload)
    }

    public func upload(deviceID: Int64, sessionName: String) async throws -> UploadRecord? {
        try await database.query("SELECT * FROM uploads WHERE device_id = ? AND session_name = ?", [.int(deviceID), .text(sessionName)])
            .first.flatMap(Self.upload)
    }

    /// Inserts an upload unless this device has one for the session; returns what is stored.
    public func insertUpload(deviceID: Int64, request: CreateUploadRequest) async throws -> UploadRecord? {
        let manifest = String(decoding: try JSONEncoder().encode(request.files), as: UTF8.self)
        _ = try await database.query(
            """
            INSERT INTO uploads (id, device_id, session_name, manifest, chunk_size, state, session_id, created_at, touched_at)
            VALUES (?, ?, ?, ?, ?, 'open', NULL, ?, ?) ON CONFLICT (device_id, session_name) DO NOTHING
            """,
            [.text(UUID().uuidString.lowercased()), .int(deviceID), .text(request.sessionName), .text(manifest), .int(Int64(request.chunkSize)),
             .double(Self.now()), .double(Self.now())])
        return try await upload(deviceID: deviceID, sessionName: request.sessionName)
    }

    /// Replaces the files of an open upload (the session changed before it was finished) and
    /// forgets the chunks received so far.
    public func replaceManifest(uploadID: String, request: CreateUploadRequest) async throws {
        let manifest = String(decoding: try JSONEncoder().encode(request.files), as: UTF8.self)
        _ = try await database.transaction([
            SQLStatement("DELETE FROM chunks WHERE upload_id = ?", [.text(uploadID)]),
            SQLStatement(
                "UPDATE uploads SET manifest = ?, chunk_size = ? WHERE id = ? AND state = 'open'",
                [.text(manifest), .int(Int64(request.chunkSize)), .text(uploadID)]),
        ])
    }

    /// Chunks received so far: file name → chunk index → SHA-256.
    public func chunks(uploadID: String) async throws -> [String: [Int: String]] {
        var result: [String: [Int: String]] = [:]
        for row in try await database.query("SELECT file_name, chunk_index, sha256 FROM chunks WHERE upload_id = ?", [.text(uploadID)]) {
            result[row["file_name"].text ?? "", default: [:]][Int(row["chunk_index"].int ?? 0)] = row["sha256"].text ?? ""
        }
        return result
    }

    public func recordChunk(uploadID: String, file: String, index: Int, sha256: String, size: Int) async throws {
        _ = try await database.transaction([
            SQLStatement(
                "INSERT INTO chunks (upload_id, file_name, chunk_index, sha256, size) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                [.text(uploadID), .text(file), .int(Int64(index)), .text(sha256), .int(Int64(size))]),
            SQLStatement("UPDATE uploads SET touched_at = ? WHERE id = ?", [.double(Self.now()), .text(uploadID)]),
        ])
    }

    /// A device's unfinished uploads other than `except`: how many, and their announced bytes.
    public func openUploads(deviceID: Int64, except sessionName: String) async throws -> (count: Int, bytes: Int64) {
        let rows = try await database.query(
            "SELECT manifest FROM uploads WHERE device_id = ? AND state = 'open' AND session_name <> ?", [.int(deviceID), .text(sessionName)])
        let bytes = rows.compactMap(\.manifestBytes).reduce(0, +)
        return (rows.count, bytes)
    }

    /// Deletes unfinished uploads untouched since `before`; returns their IDs.
    public func abandonedUploads(before: Double) async throws -> [String] {
        let ids = try await database.query(
            "SELECT id FROM uploads WHERE state = 'open' AND COALESCE(touched_at, created_at) < ?", [.double(before)]).compactMap { $0["id"].text }
        for id in ids { try await deleteUpload(id: id) }
        return ids
    }

    /// IDs of every unfinished upload.
    public func openUploadIDs() async throws -> Set<String> {
        Set(try await database.query("SELECT id FROM uploads WHERE state = 'open'", []).compactMap { $0["id"].text })
    }

    /// Removes an open upload and its chunks (a refused upload leaves no row behind).
    public func deleteUpload(id: String) async throws {
        _ = try await database.transaction([
            SQLStatement("DELETE FROM chunks WHERE upload_id = ?", [.text(id)]),
            SQLStatement("DELETE FROM uploads WHERE id = ? AND state = 'open'", [.text(id)]),
        ])
    }

    public func forgetChunks(uploadID: String, file: String) async throws {
        _ = try await database.query("DELETE FROM chunks WHERE upload_id = ? AND file_name = ?", [.text(uploadID), .text(file)])
    }

    /// Makes a verified upload a session, in one transaction; returns the session ID, nil when
    /// another request finished the upload first.
    public func completeUpload(
        _ upload: UploadRecord, device: Device, files: [SessionFile], values: SessionValues, recordedAt: String, needsProcessing: Bool
    ) async throws -> String? {
        let sessionID = UUID().uuidString.lowercased()
        let now = Self.now()
        var statements = [
            SQLStatement(
                "UPDATE uploads SET state = 'complete', session_id = ? WHERE id = ? AND state = 'open' RETURNING id",
                [.text(sessionID), .text(upload.id)]),
            SQLStatement(
                """
                INSERT INTO sessions (id, upload_id, device_id, name, site, recorded_at, uploaded_at, measured, cvai, ci, circumference_mm, rating)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [.text(sessionID), .text(upload.id), .int(device.id), .text(upload.sessionName), .text(device.site), .text(recordedAt),
                 .double(now), .int(values.measured ? 1 : 0), SQLValue(values.cvai), SQLValue(values.ci), SQLValue(values.circumferenceMM),
                 SQLValue(values.rating)]),
        ]
        for file in files {
            statements.append(SQLStatement(
                "INSERT INTO session_files (session_id, name, size, sha256) VALUES (?, ?, ?, ?)",
                [.text(sessionID), .text(file.name), .int(file.size), .text(file.sha256)]))
        }
        statements.append(SQLStatement("DELETE FROM chunks WHERE upload_id = ?", [.text(upload.id)]))
        if needsProcessing {
            statements.append(SQLStatement(
                "INSERT INTO jobs (session_id, state, attempts, updated_at) VALUES (?, 'queued', 0, ?)", [.text(sessionID), .double(now)]))
        }
        do {
            _ = try await database.transaction(statements)
        } catch {
            // A concurrent request completed it (unique upload ID): that one's session stands.
            if let stored = try await self.upload(id: upload.id), stored.state == .complete { return nil }
            throw error
        }
        return sessionID
    }

    // MARK: sessions

    /// Sessions matching `filter`, newest recording first.
    public func sessions(_ filter: SessionFilter) async throws -> [SessionSummary] {
        var conditions: [String] = []
        var arguments: [SQLValue] = []
        func add(_ condition: String, _ value: SQLValue) {
            conditions.append(condition)
            arguments.append(value)
        }
        if let site = filter.site { add("s.site = ?", .text(site)) }
        if let from = filter.from { add("s.recorded_at >= ?", .text(from)) }
        if let to = filter.to { add("s.recorded_at < ?", .text(to + "U")) }  // 'U' sorts after the 'T' of every time that day
        if let measured = filter.measured { add("s.measured = ?", .int(measured ? 1 : 0)) }
        if let value = filter.cvaiMin { add("s.cvai >= ?", .double(value)) }
        if let value = filter.cvaiMax { add("s.cvai <= ?", .double(value)) }
        if let value = filter.ratingMin { add("s.rating >= ?", .int(Int64(value))) }
        if let value = filter.ratingMax { add("s.rating <= ?", .int(Int64(value))) }
        if let device = filter.deviceID { add("s.device_id = ?", .int(device)) }
        let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        arguments.append(.int(Int64(max(1, min(filter.limit, 10_000)))))
        let rows = try await database.query(
            """
            SELECT s.*, d.name AS device_name, j.state AS job_state FROM sessions s JOIN devices d ON d.id = s.device_id
            LEFT JOIN jobs j ON j.session_id = s.id \(whereClause) ORDER BY s.recorded_at DESC, s.id LIMIT ?
            """, arguments)
        return try await summaries(rows)
    }

    /// One session and the device that uploaded it.
    public func session(id: String) async throws -> (SessionSummary, deviceID: Int64)? {
        let rows = try await database.query(
            """
            SELECT s.*, d.name AS device_name, j.state AS job_state FROM sessions s JOIN devices d ON d.id = s.device_id
            LEFT JOIN jobs j ON j.session_id = s.id WHERE s.id = ?
            """, [.text(id)])
        guard let row = rows.first, let summary = try await summaries([row]).first else { return nil }
        return (summary, row["device_id"].int ?? 0)
    }

    private func summaries(_ rows: [SQLRow]) async throws -> [SessionSummary] {
        guard !rows.isEmpty else { return [] }
        var files: [String: [SessionFile]] = [:]
        let ids = rows.compactMap { $0["id"].text }
        for start in stride(from: 0, to: ids.count, by: 500) {
            let part = Array(ids[start..<min(ids.count, start + 500)])
            let placeholders = Array(repeating: "?", count: part.count).joined(separator: ", ")
            for row in try await database.query(
                "SELECT session_id, name, size, sha256 FROM session_files WHERE session_id IN (\(placeholders)) ORDER BY name",
                part.map { .text($0) })
            {
                files[row["session_id"].text ?? "", default: []].append(
                    SessionFile(name: row["name"].text ?? "", size: row["size"].int ?? 0, sha256: row["sha256"].text ?? ""))
            }
        }
        return rows.map { row in
            let id = row["id"].text ?? ""
            return SessionSummary(
                id: id, name: row["name"].text ?? "", site: row["site"].text ?? "", device: row["device_name"].text ?? "",
                recordedAt: row["recorded_at"].text ?? "",
                // The week only: the day of the upload would tell the day of the visit.
                uploadedAt: ResearchCalendar.instantText(ResearchCalendar.weekStart(Date(timeIntervalSince1970: row["uploaded_at"].double ?? 0))),
                measured: (row["measured"].int ?? 0) != 0, cvai: row["cvai"].double, ci: row["ci"].double,
                circumferenceMM: row["circumference_mm"].double, rating: row["rating"].int.map { Int($0) },
                processing: row["job_state"].text ?? "none", files: files[id] ?? [])
        }
    }

    /// Replaces or adds files written by processing and the values read from them.
    public func updateProcessed(sessionID: String, files: [SessionFile], values: SessionValues) async throws {
        var statements: [SQLStatement] = []
        for file in files {
            statements.append(SQLStatement("DELETE FROM session_files WHERE session_id = ? AND name = ?", [.text(sessionID), .text(file.name)]))
            statements.append(SQLStatement(
                "INSERT INTO session_files (session_id, name, size, sha256) VALUES (?, ?, ?, ?)",
                [.text(sessionID), .text(file.name), .int(file.size), .text(file.sha256)]))
        }
        statements.append(SQLStatement(
            "UPDATE sessions SET measured = ?, cvai = ?, ci = ?, circumference_mm = ?, rating = COALESCE(?, rating) WHERE id = ?",
            [.int(values.measured ? 1 : 0), SQLValue(values.cvai), SQLValue(values.ci), SQLValue(values.circumferenceMM), SQLValue(values.rating),
             .text(sessionID)]))
        _ = try await database.transaction(statements)
    }

    /// Rows per table: tests compare it before and after requests that must change nothing.
    public func tableCounts() async throws -> [String: Int64] {
        var counts: [String: Int64] = [:]
        for table in ["devices", "researchers", "uploads", "chunks", "sessions", "session_files", "jobs", "audit_log", "web_sessions", "sign_in_failures"] {
            counts[table] = try await database.query("SELECT COUNT(*) AS n FROM \(table)", []).first?["n"].int ?? -1
        }
        return counts
    }

    // MARK: jobs

    /// Takes the oldest waiting job, or one whose worker's lease ran out, for `lease` seconds.
    /// On PostgreSQL `FOR UPDATE SKIP LOCKED` lets workers pass each other's rows; on SQLite the
    /// statement runs in an immediate (write-locked) transaction.
    public func claimJob(worker: String, lease: Double, maximumAttempts: Int = 3) async throws -> Job? {
        let now = Self.now()
        let lock = database.dialect == .postgres ? "FOR UPDATE SKIP LOCKED" : ""
        let rows = try await database.query(
            """
            UPDATE jobs SET state = 'running', worker = ?, lease_until = ?, attempts = attempts + 1, updated_at = ?
            WHERE id = (SELECT id FROM jobs WHERE (state = 'queued' OR (state = 'running' AND lease_until < ?)) AND attempts < ?
                        ORDER BY id LIMIT 1 \(lock))
            RETURNING id, session_id, attempts
            """,
            [.text(worker), .double(now + lease), .double(now), .double(now), .int(Int64(maximumAttempts))])
        return rows.first.map { Job(id: $0["id"].int ?? 0, sessionID: $0["session_id"].text ?? "", attempts: Int($0["attempts"].int ?? 0)) }
    }

    /// Extends a lease; false when the job is no longer this worker's.
    public func renewLease(jobID: Int64, worker: String, lease: Double) async throws -> Bool {
        !(try await database.query(
            "UPDATE jobs SET lease_until = ? WHERE id = ? AND worker = ? AND state = 'running' RETURNING id",
            [.double(Self.now() + lease), .int(jobID), .text(worker)]).isEmpty)
    }

    /// Ends a job as done or failed (failed jobs are retried until the attempts are used up).
    public func finishJob(jobID: Int64, worker: String, error: String?, maximumAttempts: Int = 3) async throws {
        if let error {
            _ = try await database.query(
                """
                UPDATE jobs SET state = CASE WHEN attempts >= ? THEN 'failed' ELSE 'queued' END, error = ?, worker = NULL, updated_at = ?
                WHERE id = ? AND worker = ?
                """, [.int(Int64(maximumAttempts)), .text(error), .double(Self.now()), .int(jobID), .text(worker)])
        } else {
            _ = try await database.query(
                "UPDATE jobs SET state = 'done', error = NULL, updated_at = ? WHERE id = ? AND worker = ?",
                [.double(Self.now()), .int(jobID), .text(worker)])
        }
    }

    /// A job's state and last error.
    public func job(sessionID: String) async throws -> (state: String, attempts: Int, error: String?)? {
        try await database.query("SELECT state, attempts, error FROM jobs WHERE session_id = ?", [.text(sessionID)]).first.map {
            ($0["state"].text ?? "", Int($0["attempts"].int ?? 0), $0["error"].text)
        }
    }
}
