import Foundation
import Upload

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

/// Finished sessions, their files and the values read from them.
public struct SessionStore: Sendable {
    let database: any SQLDatabase

    /// Sessions matching `filter`, newest recording first.
    public func matching(_ filter: SessionFilter) async throws -> [SessionSummary] {
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
    public func find(id: String) async throws -> (SessionSummary, deviceID: Int64)? {
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
            statements.append(
                SQLStatement(
                    "INSERT INTO session_files (session_id, name, size, sha256) VALUES (?, ?, ?, ?)",
                    [.text(sessionID), .text(file.name), .int(file.size), .text(file.sha256)]))
        }
        statements.append(
            SQLStatement(
                "UPDATE sessions SET measured = ?, cvai = ?, ci = ?, circumference_mm = ?, rating = COALESCE(?, rating) WHERE id = ?",
                [
                    .int(values.measured ? 1 : 0), SQLValue(values.cvai), SQLValue(values.ci), SQLValue(values.circumferenceMM),
                    SQLValue(values.rating),
                    .text(sessionID),
                ]))
        _ = try await database.transaction(statements)
    }
}
