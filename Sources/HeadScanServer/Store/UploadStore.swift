import Foundation
import Upload

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

extension SQLRow {
    /// The announced bytes of an upload row's manifest.
    var manifestBytes: Int64? {
        guard let text = self["manifest"].text, let files = try? JSONDecoder().decode([ManifestFile].self, from: Data(text.utf8)) else { return nil }
        return files.reduce(0) { $0 + max(0, $1.size) }
    }
}

/// Uploads in progress and their chunks; a completed upload becomes a session.
public struct UploadStore: Sendable {
    let database: any SQLDatabase

    static func upload(_ row: SQLRow) -> UploadRecord? {
        guard let manifestText = row["manifest"].text,
            let manifest = try? JSONDecoder().decode([ManifestFile].self, from: Data(manifestText.utf8))
        else { return nil }
        return UploadRecord(
            id: row["id"].text ?? "", deviceID: row["device_id"].int ?? 0, sessionName: row["session_name"].text ?? "", manifest: manifest,
            chunkSize: Int(row["chunk_size"].int ?? 0), state: UploadStatus.State(rawValue: row["state"].text ?? "") ?? .open,
            sessionID: row["session_id"].text)
    }

    public func find(id: String) async throws -> UploadRecord? {
        try await database.query("SELECT * FROM uploads WHERE id = ?", [.text(id)]).first.flatMap(Self.upload)
    }

    public func find(deviceID: Int64, sessionName: String) async throws -> UploadRecord? {
        try await database.query("SELECT * FROM uploads WHERE device_id = ? AND session_name = ?", [.int(deviceID), .text(sessionName)])
            .first.flatMap(Self.upload)
    }

    /// Inserts an upload unless this device has one for the session; returns what is stored.
    public func insert(deviceID: Int64, request: CreateUploadRequest) async throws -> UploadRecord? {
        let manifest = String(decoding: try JSONEncoder().encode(request.files), as: UTF8.self)
        _ = try await database.query(
            """
            INSERT INTO uploads (id, device_id, session_name, manifest, chunk_size, state, session_id, created_at, touched_at)
            VALUES (?, ?, ?, ?, ?, 'open', NULL, ?, ?) ON CONFLICT (device_id, session_name) DO NOTHING
            """,
            [
                .text(UUID().uuidString.lowercased()), .int(deviceID), .text(request.sessionName), .text(manifest), .int(Int64(request.chunkSize)),
                .double(Store.now()), .double(Store.now()),
            ])
        return try await find(deviceID: deviceID, sessionName: request.sessionName)
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

    /// The digest the database holds for one chunk, nil when it has none.
    public func chunkDigest(uploadID: String, file: String, index: Int) async throws -> String? {
        try await database.query(
            "SELECT sha256 FROM chunks WHERE upload_id = ? AND file_name = ? AND chunk_index = ?",
            [.text(uploadID), .text(file), .int(Int64(index))]
        ).first?["sha256"].text
    }

    public func recordChunk(uploadID: String, file: String, index: Int, sha256: String, size: Int) async throws {
        _ = try await database.transaction([
            SQLStatement(
                "INSERT INTO chunks (upload_id, file_name, chunk_index, sha256, size) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                [.text(uploadID), .text(file), .int(Int64(index)), .text(sha256), .int(Int64(size))]),
            SQLStatement("UPDATE uploads SET touched_at = ? WHERE id = ?", [.double(Store.now()), .text(uploadID)]),
        ])
    }

    /// A device's unfinished uploads other than `except`: how many, and their announced bytes.
    public func unfinished(deviceID: Int64, except sessionName: String) async throws -> (count: Int, bytes: Int64) {
        let rows = try await database.query(
            "SELECT manifest FROM uploads WHERE device_id = ? AND state = 'open' AND session_name <> ?", [.int(deviceID), .text(sessionName)])
        let bytes = rows.compactMap(\.manifestBytes).reduce(0, +)
        return (rows.count, bytes)
    }

    /// Deletes unfinished uploads untouched since `before`; returns their IDs.
    public func deleteAbandoned(before: Double) async throws -> [String] {
        let ids = try await database.query(
            "SELECT id FROM uploads WHERE state = 'open' AND COALESCE(touched_at, created_at) < ?", [.double(before)]
        ).compactMap { $0["id"].text }
        for id in ids { try await delete(id: id) }
        return ids
    }

    /// IDs of every unfinished upload.
    public func openIDs() async throws -> Set<String> {
        Set(try await database.query("SELECT id FROM uploads WHERE state = 'open'", []).compactMap { $0["id"].text })
    }

    /// Removes an open upload and its chunks (a refused upload leaves no row behind).
    public func delete(id: String) async throws {
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
    public func complete(
        _ upload: UploadRecord, device: Device, files: [SessionFile], values: SessionValues, recordedAt: String, needsProcessing: Bool
    ) async throws -> String? {
        let sessionID = UUID().uuidString.lowercased()
        let now = Store.now()
        var statements = [
            SQLStatement(
                "UPDATE uploads SET state = 'complete', session_id = ? WHERE id = ? AND state = 'open' RETURNING id",
                [.text(sessionID), .text(upload.id)]),
            SQLStatement(
                """
                INSERT INTO sessions (id, upload_id, device_id, name, site, recorded_at, uploaded_at, measured, cvai, ci, circumference_mm, rating)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(sessionID), .text(upload.id), .int(device.id), .text(upload.sessionName), .text(device.site), .text(recordedAt),
                    .double(now), .int(values.measured ? 1 : 0), SQLValue(values.cvai), SQLValue(values.ci), SQLValue(values.circumferenceMM),
                    SQLValue(values.rating),
                ]),
        ]
        for file in files {
            statements.append(
                SQLStatement(
                    "INSERT INTO session_files (session_id, name, size, sha256) VALUES (?, ?, ?, ?)",
                    [.text(sessionID), .text(file.name), .int(file.size), .text(file.sha256)]))
        }
        statements.append(SQLStatement("DELETE FROM chunks WHERE upload_id = ?", [.text(upload.id)]))
        if needsProcessing {
            statements.append(
                SQLStatement(
                    "INSERT INTO jobs (session_id, state, attempts, updated_at) VALUES (?, 'queued', 0, ?)", [.text(sessionID), .double(now)]))
        }
        do {
            _ = try await database.transaction(statements)
        } catch {
            // A concurrent request completed it (unique upload ID): that one's session stands.
            if let stored = try await find(id: upload.id), stored.state == .complete { return nil }
            throw error
        }
        return sessionID
    }
}
