import Foundation

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

/// Researchers' accounts.
public struct ResearcherStore: Sendable {
    let database: any SQLDatabase

    /// Adds a researcher; the password is hashed with bcrypt.
    public func add(email: String, password: String, role: Role, cost: UInt8 = 12) async throws -> Researcher {
        let email = email.lowercased()
        guard Self.isPlainAddress(email) else {
            throw DatabaseError("\(LogText.label(email)) is not an e-mail address (letters, digits and . _ % + - before and after one @, no spaces)")
        }
        try Self.checkPassword(password)
        if try await find(email: email) != nil {
            throw DatabaseError("a researcher with the address \(email) exists already")
        }
        let hash = PasswordHashing.hash(password, cost: cost)
        let rows = try await database.query(
            "INSERT INTO researchers (email, password_hash, role, created_at) VALUES (?, ?, ?, ?) RETURNING id",
            [.text(email), .text(hash), .text(role.rawValue), .double(Store.now())])
        return Researcher(id: rows.first?["id"].int ?? 0, email: email, passwordHash: hash, role: role)
    }

    public func find(email: String) async throws -> Researcher? {
        let rows = try await database.query("SELECT * FROM researchers WHERE email = ?", [.text(email.lowercased())])
        return rows.first.map(Self.researcher)
    }

    /// Every researcher account, by address.
    public func all() async throws -> [Researcher] {
        try await database.query("SELECT * FROM researchers ORDER BY email", []).map(Self.researcher)
    }

    /// Deletes an account and signs it out everywhere.
    public func remove(email: String) async throws {
        guard let researcher = try await find(email: email) else {
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
        guard let researcher = try await find(email: email) else {
            throw DatabaseError("no researcher has the address \(email); `headscan-server researcher list` shows them")
        }
        _ = try await database.transaction([
            SQLStatement(
                "UPDATE researchers SET password_hash = ? WHERE id = ?", [.text(PasswordHashing.hash(password, cost: cost)), .int(researcher.id)]),
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
}
