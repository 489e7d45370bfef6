import ArgumentParser
import Foundation
import HeadScanServer
import Hummingbird
import Logging

/// `headscan-server`: the research data service.
@main
struct HeadScanServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "headscan-server",
        abstract: "Receive scan sessions from clinics, keep them pseudonymous, and serve them to researchers.",
        discussion: """
            Start with `headscan-server serve --data DIR`: files go to DIR, metadata to an SQLite \
            database in DIR. With --database postgres://USER:PASSWORD@HOST/DB the metadata lives in \
            PostgreSQL, so that several servers and workers share it. Add devices (`device add`) \
            and researchers (`researcher add`) with the same --data and --database.
            """,
        subcommands: [Serve.self, Worker.self, DeviceCommand.self, ResearcherCommand.self],
        defaultSubcommand: Serve.self)
}

struct StorageOptions: ParsableArguments {
    @Option(help: "The data folder: uploaded files, and the SQLite database unless --database is given.")
    var data: String

    @Option(help: "A PostgreSQL database, postgres://USER:PASSWORD@HOST:PORT/DATABASE (default: SQLite in the data folder).")
    var database: String?

    func open() async throws -> ResearchServer {
        try await ResearchServer.open(data: data, databaseURL: database)
    }
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the service (HTTP; put TLS in a reverse proxy in front).")

    @OptionGroup var storage: StorageOptions
    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "The port to listen on.") var port = 8080
    @Option(help: "Processing workers to run inside this process (0: leave processing to `headscan-server worker`).")
    var workers = 1

    func run() async throws {
        LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
        let server = try await storage.open()
        let app = server.application(host: host, port: port)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<max(0, workers) {
                group.addTask { await ProcessingWorker(store: server.store, blobs: server.blobs).run() }
            }
            group.addTask { try await app.runService() }
            try await group.next()
            group.cancelAll()
        }
    }
}

struct Worker: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Process uploaded sessions from the shared job queue until stopped.")

    @OptionGroup var storage: StorageOptions
    @Option(help: "Seconds a job stays claimed without a sign of life before another worker takes it.")
    var lease = 120.0

    func run() async throws {
        LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
        let server = try await storage.open()
        var worker = ProcessingWorker(store: server.store, blobs: server.blobs)
        worker.lease = lease
        await worker.run()
    }
}

struct DeviceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "device", abstract: "Manage upload devices.", subcommands: [Add.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a device; prints its upload token on the last line (shown only once; the server keeps a hash).")

        @Argument(help: "A name for the device, e.g. clinic-a-iphone-1.") var name: String
        @Option(help: "The site (clinic) the device belongs to (default: the device name).") var site: String?
        @OptionGroup var storage: StorageOptions

        func run() async throws {
            let server = try await storage.open()
            let (device, token) = try await server.store.addDevice(name: name, site: site ?? name)
            await server.store.database.close()
            print("Device \(device.name) (site \(device.site)) added. Its token, shown only now:")
            print(token)
        }
    }
}

struct ResearcherCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "researcher", abstract: "Manage researcher accounts.", subcommands: [Add.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a researcher; reads the password (10 characters or more) from standard input.")

        @Argument(help: "The researcher's e-mail address, used to sign in.") var email: String
        @Option(help: "downloader (list and download) or viewer (list only).") var role = "downloader"
        @OptionGroup var storage: StorageOptions

        func run() async throws {
            guard let role = Role(rawValue: role) else {
                throw ValidationError("the role must be \(Role.allCases.map(\.rawValue).joined(separator: " or "))")
            }
            guard let line = readLine(strippingNewline: true), !line.isEmpty else {
                throw ValidationError("give the password on standard input, e.g. `echo \"$PASSWORD\" | headscan-server researcher add \(email) --data DIR`")
            }
            let server = try await storage.open()
            let researcher = try await server.store.addResearcher(email: email, password: line, role: role)
            await server.store.database.close()
            print("Researcher \(researcher.email) added with the role \(researcher.role.rawValue).")
        }
    }
}
