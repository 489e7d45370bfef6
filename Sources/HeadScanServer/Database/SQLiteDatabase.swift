import Foundation
import GRDB

/// The embedded default: one SQLite file in the data folder (WAL mode, so listings never wait
/// for uploads; several processes may share it).
public final class SQLiteDatabase: SQLDatabase {
    public let dialect = SQLDialect.sqlite
    private let pool: DatabasePool

    public init(path: String) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(30)
        configuration.foreignKeysEnabled = true
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
        } catch {
            throw DatabaseError("cannot open the SQLite database \(path): \(error); check that the data folder is writable")
        }
    }

    public func query(_ sql: String, _ arguments: [SQLValue]) async throws -> [SQLRow] {
        try await transaction([SQLStatement(sql, arguments)])[0]
    }

    public func transaction(_ statements: [SQLStatement]) async throws -> [[SQLRow]] {
        try await pool.writeWithoutTransaction { db in
            var results: [[SQLRow]] = []
            try db.inTransaction(.immediate) {
                results = try statements.map { statement in
                    try Row.fetchAll(
                        db, sql: statement.sql,
                        arguments: StatementArguments(statement.arguments.map { Self.value($0) as (any DatabaseValueConvertible)? })
                    )
                    .map(Self.row)
                }
                return .commit
            }
            return results
        }
    }

    public func migrate() async throws {
        _ = try await transaction(Schema.statements(.sqlite).map { SQLStatement($0) })
        try await upgrade()
    }

    public func close() async {
        try? pool.close()
    }

    private static func value(_ value: SQLValue) -> DatabaseValue {
        switch value {
        case .null: .null
        case .int(let int): int.databaseValue
        case .double(let double): double.databaseValue
        case .text(let text): text.databaseValue
        }
    }

    private static func row(_ row: Row) -> SQLRow {
        var values: [String: SQLValue] = [:]
        for (column, value) in row {
            switch value.storage {
            case .null: values[column] = .null
            case .int64(let int): values[column] = .int(int)
            case .double(let double): values[column] = .double(double)
            case .string(let text): values[column] = .text(text)
            case .blob(let data): values[column] = .text(String(decoding: data, as: UTF8.self))
            }
        }
        return SQLRow(values: values)
    }
}
