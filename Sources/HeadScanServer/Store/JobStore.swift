import Foundation

/// A processing job taken by a worker.
public struct Job: Sendable, Hashable {
    public var id: Int64
    public var sessionID: String
    public var attempts: Int
}

/// Processing jobs and the leases of the workers that run them.
public struct JobStore: Sendable {
    let database: any SQLDatabase

    /// Takes the oldest waiting job, or one whose worker's lease ran out, for `lease` seconds.
    /// On PostgreSQL `FOR UPDATE SKIP LOCKED` lets workers pass each other's rows; on SQLite the
    /// statement runs in an immediate (write-locked) transaction.
    public func claim(worker: String, lease: Double, maximumAttempts: Int = 3) async throws -> Job? {
        let now = Store.now()
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
            [.double(Store.now() + lease), .int(jobID), .text(worker)]
        ).isEmpty)
    }

    /// Ends a job as done or failed (failed jobs are retried until the attempts are used up).
    public func finish(jobID: Int64, worker: String, error: String?, maximumAttempts: Int = 3) async throws {
        if let error {
            _ = try await database.query(
                """
                UPDATE jobs SET state = CASE WHEN attempts >= ? THEN 'failed' ELSE 'queued' END, error = ?, worker = NULL, updated_at = ?
                WHERE id = ? AND worker = ?
                """, [.int(Int64(maximumAttempts)), .text(error), .double(Store.now()), .int(jobID), .text(worker)])
        } else {
            _ = try await database.query(
                "UPDATE jobs SET state = 'done', error = NULL, updated_at = ? WHERE id = ? AND worker = ?",
                [.double(Store.now()), .int(jobID), .text(worker)])
        }
    }

    /// A job's state and last error.
    public func find(sessionID: String) async throws -> (state: String, attempts: Int, error: String?)? {
        try await database.query("SELECT state, attempts, error FROM jobs WHERE session_id = ?", [.text(sessionID)]).first.map {
            ($0["state"].text ?? "", Int($0["attempts"].int ?? 0), $0["error"].text)
        }
    }
}
