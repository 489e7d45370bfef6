import Foundation

/// A value bound to or read from SQL; the schema uses only these four kinds so that SQLite and
/// PostgreSQL store the same thing.
public enum SQLValue: Sendable, Hashable {
    case null
    case int(Int64)
    case double(Double)
    case text(String)

    var int: Int64? {
        switch self {
        case .int(let value): value
        // Total: a stored 1e300 reads as no number rather than a crash.
        case .double(let value): value.isFinite && abs(value) < 9e18 ? Int64(value) : nil
        case .text(let text): Int64(text)
        case .null: nil
        }
    }

    var double: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        case .text(let text): Double(text)
        case .null: nil
        }
    }

    var text: String? {
        switch self {
        case .text(let text): text
        case .int(let value): String(value)
        case .double(let value): String(value)
        case .null: nil
        }
    }
}

extension SQLValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    init(_ value: String?) { self = value.map { .text($0) } ?? .null }
    init(_ value: Int?) { self = value.map { .int(Int64($0)) } ?? .null }
    init(_ value: Int64?) { self = value.map { .int($0) } ?? .null }
    init(_ value: Double?) { self = value.map { .double($0) } ?? .null }
}

/// One result row by column name.
public struct SQLRow: Sendable {
    var values: [String: SQLValue]
    subscript(_ column: String) -> SQLValue { values[column] ?? .null }
}

/// One statement with `?` placeholders.
public struct SQLStatement: Sendable {
    var sql: String
    var arguments: [SQLValue]
    init(_ sql: String, _ arguments: [SQLValue] = []) {
        self.sql = sql
        self.arguments = arguments
    }
}

/// What the store needs of a database; SQLite (GRDB) and PostgreSQL (PostgresNIO) provide it.
/// Statements use `?` placeholders; the PostgreSQL side numbers them.
public protocol SQLDatabase: Sendable {
    var dialect: SQLDialect { get }
    /// Runs a statement and returns its rows (also for `… RETURNING`).
    func query(_ sql: String, _ arguments: [SQLValue]) async throws -> [SQLRow]
    /// Runs statements in one transaction: all or nothing. Returns each statement's rows.
    func transaction(_ statements: [SQLStatement]) async throws -> [[SQLRow]]
    /// Creates the tables when they are missing.
    func migrate() async throws
    func close() async
}

public enum SQLDialect: Sendable {
    case sqlite, postgres
}

/// A database or configuration problem, with what to do about it.
public struct DatabaseError: Error, CustomStringConvertible, LocalizedError {
    public let description: String
    public init(_ description: String) { self.description = description }
    public var errorDescription: String? { description }
}

/// The schema, written once for both databases; only the identity column differs.
enum Schema {
    static func statements(_ dialect: SQLDialect) -> [String] {
        let id = dialect == .sqlite ? "INTEGER PRIMARY KEY AUTOINCREMENT" : "BIGSERIAL PRIMARY KEY"
        let real = dialect == .sqlite ? "REAL" : "DOUBLE PRECISION"
        let int = dialect == .sqlite ? "INTEGER" : "BIGINT"
        return [
            """
            CREATE TABLE IF NOT EXISTS devices (
              id \(id), name TEXT NOT NULL UNIQUE, site TEXT NOT NULL, token_hash TEXT NOT NULL UNIQUE, created_at \(real) NOT NULL)
            """,
            """
            CREATE TABLE IF NOT EXISTS researchers (
              id \(id), email TEXT NOT NULL UNIQUE, password_hash TEXT NOT NULL, role TEXT NOT NULL, created_at \(real) NOT NULL)
            """,
            """
            CREATE TABLE IF NOT EXISTS uploads (
              id TEXT PRIMARY KEY, device_id \(int) NOT NULL REFERENCES devices(id), session_name TEXT NOT NULL,
              manifest TEXT NOT NULL, chunk_size \(int) NOT NULL, state TEXT NOT NULL, session_id TEXT,
              created_at \(real) NOT NULL, UNIQUE (device_id, session_name))
            """,
            """
            CREATE TABLE IF NOT EXISTS chunks (
              upload_id TEXT NOT NULL REFERENCES uploads(id), file_name TEXT NOT NULL, chunk_index \(int) NOT NULL,
              sha256 TEXT NOT NULL, size \(int) NOT NULL, PRIMARY KEY (upload_id, file_name, chunk_index))
            """,
            """
            CREATE TABLE IF NOT EXISTS sessions (
              id TEXT PRIMARY KEY, upload_id TEXT NOT NULL UNIQUE REFERENCES uploads(id), device_id \(int) NOT NULL REFERENCES devices(id),
              name TEXT NOT NULL, site TEXT NOT NULL, recorded_at TEXT NOT NULL, uploaded_at \(real) NOT NULL,
              measured \(int) NOT NULL, cvai \(real), ci \(real), circumference_mm \(real), rating \(int))
            """,
            "CREATE INDEX IF NOT EXISTS sessions_device ON sessions (device_id)",
            "CREATE INDEX IF NOT EXISTS sessions_recorded ON sessions (recorded_at)",
            """
            CREATE TABLE IF NOT EXISTS session_files (
              session_id TEXT NOT NULL REFERENCES sessions(id), name TEXT NOT NULL, size \(int) NOT NULL, sha256 TEXT NOT NULL,
              PRIMARY KEY (session_id, name))
            """,
            """
            CREATE TABLE IF NOT EXISTS jobs (
              id \(id), session_id TEXT NOT NULL UNIQUE REFERENCES sessions(id), state TEXT NOT NULL, attempts \(int) NOT NULL,
              worker TEXT, lease_until \(real), error TEXT, updated_at \(real) NOT NULL)
            """,
            "CREATE INDEX IF NOT EXISTS jobs_state ON jobs (state, lease_until)",
            """
            CREATE TABLE IF NOT EXISTS audit_log (
              id \(id), at \(real) NOT NULL, actor TEXT NOT NULL, action TEXT NOT NULL, session_id TEXT, file_name TEXT, detail TEXT)
            """,
            """
            CREATE TABLE IF NOT EXISTS web_sessions (
              token_hash TEXT PRIMARY KEY, researcher_id \(int) NOT NULL REFERENCES researchers(id), expires_at \(real) NOT NULL)
            """,
        ]
    }
}

/// Columns and tables added after the first release; each step may run again (on start-up of
/// every process) without harm.
enum SchemaUpgrades {
    static func columns(_ dialect: SQLDialect) -> [(table: String, column: String, type: String)] {
        let real = dialect == .sqlite ? "REAL" : "DOUBLE PRECISION"
        return [
            ("devices", "revoked_at", real), ("devices", "expires_at", real),
            ("audit_log", "address", "TEXT"), ("audit_log", "prev_id", dialect == .sqlite ? "INTEGER" : "BIGINT"), ("audit_log", "row_hash", "TEXT"),
            ("uploads", "touched_at", real),
        ]
    }

    static func statements(_ dialect: SQLDialect) -> [String] {
        let real = dialect == .sqlite ? "REAL" : "DOUBLE PRECISION"
        return [
            "CREATE TABLE IF NOT EXISTS sign_in_failures (subject TEXT NOT NULL, at \(real) NOT NULL)",
            "CREATE INDEX IF NOT EXISTS sign_in_failures_subject ON sign_in_failures (subject, at)",
            "CREATE INDEX IF NOT EXISTS uploads_device_state ON uploads (device_id, state)",
            // One successor per row: two writers that chained to the same row cannot both insert.
            "CREATE UNIQUE INDEX IF NOT EXISTS audit_log_prev ON audit_log (prev_id)",
        ] + appendOnly(dialect)
    }

    /// Triggers that refuse changing or deleting audit rows. The database's owner can drop
    /// them; the keyed chain finds what such a person changes (see `AuditSeal`).
    static func appendOnly(_ dialect: SQLDialect) -> [String] {
        switch dialect {
        case .sqlite:
            return ["UPDATE", "DELETE"].map { action in
                "CREATE TRIGGER IF NOT EXISTS audit_log_no_\(action.lowercased()) BEFORE \(action) ON audit_log BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END"
            }
        case .postgres:
            return [
                "CREATE OR REPLACE FUNCTION headscan_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'the audit log is append-only'; END $$",
                "CREATE OR REPLACE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION headscan_audit_append_only()",
                "CREATE OR REPLACE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log FOR EACH STATEMENT EXECUTE FUNCTION headscan_audit_append_only()",
            ]
        }
    }
}

extension SQLiteDatabase {
    /// Adds what `SchemaUpgrades` lists and is missing (PostgreSQL does it in its migration's
    /// locked transaction with `IF NOT EXISTS`).
    func upgrade() async throws {
        for (table, column, type) in SchemaUpgrades.columns(.sqlite) {
            let existing = try await query("SELECT name FROM pragma_table_info('\(table)')", []).compactMap { $0["name"].text }
            if !existing.contains(column) { _ = try await query("ALTER TABLE \(table) ADD COLUMN \(column) \(type)", []) }
        }
        for statement in SchemaUpgrades.statements(.sqlite) { _ = try await query(statement, []) }
    }
}
