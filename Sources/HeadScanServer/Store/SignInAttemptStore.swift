import Foundation

/// Sign-in attempts per subject (an account, an address, both), counted before the password
/// is checked so that concurrent guesses cannot pass the limits.
public struct SignInAttemptStore: Sendable {
    let database: any SQLDatabase

    /// Attempts recorded for `subject` since `since` (this one's among them: counted after it was
    /// written, so of concurrent attempts at most the limit see a count within it), and the oldest.
    func failures(subject: String, since: Double) async throws -> (count: Int, oldest: Double?) {
        let row = try await database.query(
            "SELECT COUNT(*) AS n, MIN(at) AS oldest FROM sign_in_failures WHERE subject = ? AND at > ?",
            [.text(subject), .double(since)]
        ).first
        return (Int(row?["n"].int ?? 0), row?["oldest"].double)
    }

    /// Records an attempt under every subject before its password is checked; returns its
    /// time, which tells it apart (a few random microseconds keep concurrent ones distinct).
    func record(subjects: [String], window: Double) async throws -> Double {
        let now = Store.now() + Double.random(in: 0..<1e-3)
        _ = try await database.transaction(
            [SQLStatement("DELETE FROM sign_in_failures WHERE at < ?", [.double(now - window)])]
                + subjects.map { SQLStatement("INSERT INTO sign_in_failures (subject, at) VALUES (?, ?)", [.text($0), .double(now)]) })
        return now
    }

    /// Removes one attempt's rows (it succeeded, or it was never checked).
    func forget(_ at: Double, subjects: [String]) async throws {
        _ = try await database.transaction(
            subjects.map { SQLStatement("DELETE FROM sign_in_failures WHERE subject = ? AND at = ?", [.text($0), .double(at)]) })
    }

    func clear(subject: String) async throws {
        _ = try await database.query("DELETE FROM sign_in_failures WHERE subject = ?", [.text(subject)])
    }
}
