import Foundation

/// The sign-in cookies of the researchers' pages.
public struct WebSessionStore: Sendable {
    let database: any SQLDatabase

    /// A sign-in cookie's token for a researcher, valid for `lifetime` seconds.
    public func create(researcherID: Int64, lifetime: Double = 8 * 3600) async throws -> String {
        let token = Store.newToken(prefix: "hsw_")
        _ = try await database.transaction([
            SQLStatement("DELETE FROM web_sessions WHERE expires_at < ?", [.double(Store.now())]),
            SQLStatement(
                "INSERT INTO web_sessions (token_hash, researcher_id, expires_at) VALUES (?, ?, ?)",
                [.text(Store.tokenHash(token)), .int(researcherID), .double(Store.now() + lifetime)]),
        ])
        return token
    }

    public func researcher(token: String) async throws -> Researcher? {
        let rows = try await database.query(
            "SELECT r.* FROM web_sessions w JOIN researchers r ON r.id = w.researcher_id WHERE w.token_hash = ? AND w.expires_at > ?",
            [.text(Store.tokenHash(token)), .double(Store.now())])
        return rows.first.map(ResearcherStore.researcher)
    }

    public func delete(_ token: String) async throws {
        _ = try await database.query("DELETE FROM web_sessions WHERE token_hash = ?", [.text(Store.tokenHash(token))])
    }
}
