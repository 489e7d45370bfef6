import Foundation
import Logging
import PostgresNIO

/// PostgreSQL through PostgresNIO: for several server and worker processes on one database.
///
/// The URL is `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`; `?schema=NAME` keeps the
/// tables in a schema of their own (created when missing).
public final class PostgresDatabase: SQLDatabase {
    public let dialect = SQLDialect.postgres
    /// Errors only: the pool's routine notices would drown the server's own log.
    public static var defaultLogger: Logger {
        var logger = Logger(label: "headscan.postgres")
        logger.logLevel = .error
        return logger
    }
    private let client: PostgresClient
    private let runner: Task<Void, Never>
    private let schema: String?
    private let logger: Logger

    public init(url text: String, logger: Logger = PostgresDatabase.defaultLogger) throws {
        guard let url = URLComponents(string: text), url.scheme == "postgres" || url.scheme == "postgresql",
            let host = url.host, !host.isEmpty
        else {
            throw DatabaseError("the database URL \(text) is not of the form postgres://USER:PASSWORD@HOST:PORT/DATABASE")
        }
        let database = url.path.hasPrefix("/") ? String(url.path.dropFirst()) : url.path
        let user = url.user ?? ProcessInfo.processInfo.environment["USER"] ?? "postgres"
        var configuration = PostgresClient.Configuration(
            host: host, port: url.port ?? 5432, username: user, password: url.password, database: database.isEmpty ? nil : database,
            tls: .disable)
        let schema = url.queryItems?.first(where: { $0.name == "schema" })?.value
        if let schema {
            guard !schema.isEmpty, schema.utf8.count < 60, schema.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) || $0 == "_" }),
                schema.unicodeScalars.allSatisfy(\.isASCII)
            else {
                throw DatabaseError("the schema name \(schema) may hold only ASCII letters, digits and '_'")
            }
            configuration.options.additionalStartupParameters = [("search_path", schema)]
        }
        configuration.options.maximumConnections = 16
        self.schema = schema
        self.logger = logger
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        runner = Task { await client.run() }
    }

    public func query(_ sql: String, _ arguments: [SQLValue]) async throws -> [SQLRow] {
        let rows = try await client.query(Self.query(sql, arguments), logger: logger)
        return try await Self.collect(rows)
    }

    public func transaction(_ statements: [SQLStatement]) async throws -> [[SQLRow]] {
        try await client.withTransaction(logger: logger) { connection in
            var results: [[SQLRow]] = []
            for statement in statements {
                let rows = try await connection.query(Self.query(statement.sql, statement.arguments), logger: logger)
                results.append(try await Self.collect(rows))
            }
            return results
        }
    }

    public func migrate() async throws {
        if let schema {
            _ = try await query("CREATE SCHEMA IF NOT EXISTS \(schema)", [])
        }
        // One migration at a time when several processes start together.
        var statements = [SQLStatement("SELECT pg_advisory_xact_lock(7305019)")]
        statements += Schema.statements(.postgres).map { SQLStatement($0) }
        statements += SchemaUpgrades.columns(.postgres).map {
            SQLStatement("ALTER TABLE \($0.table) ADD COLUMN IF NOT EXISTS \($0.column) \($0.type)")
        }
        statements += SchemaUpgrades.statements(.postgres).map { SQLStatement($0) }
        _ = try await transaction(statements)
    }

    public func close() async {
        runner.cancel()
        _ = await runner.value
    }

    /// Numbers the `?` placeholders.
    static func query(_ sql: String, _ arguments: [SQLValue]) -> PostgresQuery {
        var text = ""
        var number = 0
        for character in sql {
            if character == "?" {
                number += 1
                text += "$\(number)"
            } else {
                text.append(character)
            }
        }
        var binds = PostgresBindings(capacity: arguments.count)
        for argument in arguments {
            switch argument {
            case .null: binds.appendNull()
            case .int(let int): binds.append(int)
            case .double(let double): binds.append(double)
            case .text(let string): binds.append(string)
            }
        }
        return PostgresQuery(unsafeSQL: text, binds: binds)
    }

    static func collect(_ rows: PostgresRowSequence) async throws -> [SQLRow] {
        var result: [SQLRow] = []
        for try await row in rows {
            var values: [String: SQLValue] = [:]
            for cell in row {
                guard cell.bytes != nil else {
                    values[cell.columnName] = .null
                    continue
                }
                switch cell.dataType {
                case .int2, .int4, .int8:
                    values[cell.columnName] = .int(try cell.decode(Int64.self))
                case .float4, .float8:
                    values[cell.columnName] = .double(try cell.decode(Double.self))
                case .bool:
                    values[cell.columnName] = .int(try cell.decode(Bool.self) ? 1 : 0)
                case .void:
                    values[cell.columnName] = .null
                default:
                    values[cell.columnName] = .text(try cell.decode(String.self))
                }
            }
            result.append(SQLRow(values: values))
        }
        return result
    }
}
