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
        subcommands: [
            Serve.self, Worker.self, DeviceCommand.self, ResearcherCommand.self, AuditCommand.self, InspectUploadCommand.self, TUMExportCommand.self,
            ProcessFolderCommand.self,
        ],
        defaultSubcommand: Serve.self)
}

struct StorageOptions: ParsableArguments {
    @Option(help: "The data folder: uploaded files, and the SQLite database unless --database is given.")
    var data: String

    @Option(
        help:
            "A PostgreSQL database, postgres://USER:PASSWORD@HOST:PORT/DATABASE (default: SQLite in the data folder). Keeps the password off the command line when given as the environment variable HEADSCAN_DATABASE_URL or with --database-file."
    )
    var database: String?

    @Option(help: "A file (readable by the service's user only) whose first line is the PostgreSQL URL.")
    var databaseFile: String?

    func open() async throws -> ResearchServer {
        // Files and folders the service creates are the service user's alone.
        umask(0o077)
        return try await ResearchServer.open(data: data, databaseURL: try databaseURL())
    }

    func databaseURL() throws -> String? {
        if let database { return database }
        if let databaseFile {
            guard let text = try? String(contentsOfFile: databaseFile, encoding: .utf8),
                let line = text.split(whereSeparator: \.isNewline).first.map(String.init), !line.isEmpty
            else {
                throw ValidationError(
                    "--database-file \(databaseFile) cannot be read or is empty; its first line is postgres://USER:PASSWORD@HOST/DB")
            }
            return line
        }
        return ProcessInfo.processInfo.environment["HEADSCAN_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the service (HTTP; put TLS in a reverse proxy in front).",
        discussion: """
            Behind nginx on the same machine with HTTPS: \
            `headscan-server serve --data /srv/headscan --trusted-proxy 127.0.0.1 --behind-tls`. \
            The proxy's X-Forwarded-For then names the client in the audit log and the sign-in \
            limits, cookies are sent over HTTPS only and browsers are told to keep to HTTPS.
            """)

    @OptionGroup var storage: StorageOptions
    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "The port to listen on.") var port = 8080
    @Option(help: "Processing workers to run inside this process (0: leave processing to `headscan-server worker`).")
    var workers = 1
    @Option(help: "Address of a reverse proxy whose X-Forwarded-For header names the client (repeat for several).")
    var trustedProxy: [String] = []
    @Flag(help: "The service is reached through HTTPS (a TLS proxy): Secure cookies and Strict-Transport-Security.")
    var behindTLS = false
    @Option(help: "Unfinished uploads one device may have at once.") var openUploadsPerDevice = 8
    @Option(name: .customLong("device-quota-gib"), help: "GiB one device may have announced in unfinished uploads.") var deviceQuotaGiB = 32
    @Option(name: .customLong("reserve-gib"), help: "GiB the data folder's disk always keeps free; below it uploads wait.") var reserveGiB = 2
    @Option(help: "Days after its last chunk an unfinished upload is deleted.") var abandonAfterDays = 7

    func run() async throws {
        LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
        var server = try await storage.open()
        server.trustedProxies = Set(trustedProxy)
        server.behindTLS = behindTLS
        var limits = StorageLimits()
        limits.openUploadsPerDevice = max(1, openUploadsPerDevice)
        limits.announcedBytesPerDevice = Int64(max(1, deviceQuotaGiB)) << 30
        limits.reserveBytes = Int64(max(0, reserveGiB)) << 30
        limits.abandonedAfter = Double(max(1, abandonAfterDays)) * 86_400
        server.limits = limits
        guard let isolation = Isolation.currentExecutable else {
            throw ValidationError("the service cannot find its own binary to check uploads in a process of their own; start it by its full path")
        }
        server.isolation = isolation
        let app = server.application(host: host, port: port)
        let uploads = server.uploads
        let (store, blobs) = (server.store, server.blobs)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<max(0, workers) {
                group.addTask {
                    var worker = ProcessingWorker(store: store, blobs: blobs)
                    worker.isolation = Isolation.currentExecutable.map { Isolation(executable: $0.executable, timeLimit: ProcessingWorker.timeLimit) }
                    await worker.run()
                }
            }
            // Leftovers of a killed process at start-up, abandoned uploads every hour.
            group.addTask {
                while !Task.isCancelled {
                    try? await uploads.sweep(scratchAge: 3600)
                    try await Task.sleep(for: .seconds(3600))
                }
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
        worker.isolation = Isolation.currentExecutable.map { Isolation(executable: $0.executable, timeLimit: ProcessingWorker.timeLimit) }
        await worker.run()
    }
}

struct DeviceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device", abstract: "Manage upload devices: add, list, revoke a lost one, rotate a token.",
        discussion: """
            A lost or stolen phone: `headscan-server device revoke clinic-a-iphone-1 --data DIR`. Its \
            token fails from the next request on; its unfinished uploads are dropped, its finished \
            sessions stay. Give the replacement phone a new name with `device add`.
            """,
        subcommands: [Add.self, List.self, Revoke.self, Rotate.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a device; prints its upload token on the last line (shown only once; the server keeps a hash).",
            discussion: "Example: headscan-server device add clinic-a-iphone-1 --site clinic-a --expires-in-days 365 --data /srv/headscan")

        @Argument(help: "A name for the device, e.g. clinic-a-iphone-1.") var name: String
        @Option(help: "The site (clinic) the device belongs to (default: the device name).") var site: String?
        @Option(help: "Days until the token stops working on its own (default: never).") var expiresInDays: Int?
        @OptionGroup var storage: StorageOptions

        func run() async throws {
            let expiry = try expiryDate(expiresInDays)
            let server = try await storage.open()
            let (device, token) = try await server.store.devices.add(name: name, site: site ?? name, expiresAt: expiry)
            await server.store.database.close()
            print("Device \(device.name) (site \(device.site)) added\(expiry.map { ", valid until \(day($0))" } ?? ""). Its token, shown only now:")
            print(token)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List devices with their site, state, expiry and sessions.")
        @OptionGroup var storage: StorageOptions

        func run() async throws {
            let server = try await storage.open()
            let devices = try await server.store.devices.all()
            await server.store.database.close()
            print("NAME\tSITE\tSTATE\tADDED\tEXPIRES\tSESSIONS")
            for d in devices {
                print("\(d.name)\t\(d.site)\t\(d.state)\t\(day(d.createdAt))\t\(d.expiresAt.map(day) ?? "never")\t\(d.sessions)")
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "End a device's token at once (a lost or stolen phone).")
        @Argument(help: "The device's name, as `device list` shows it.") var name: String
        @OptionGroup var storage: StorageOptions

        func run() async throws {
            let server = try await storage.open()
            try await server.store.devices.revoke(name: name)
            try await server.store.audit(AuditEntry(actor: "admin", action: "revoke-device", detail: name))
            await server.store.database.close()
            print("Device \(name) revoked: its token no longer works.")
        }
    }

    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Give a device a new token (the old one stops at once); prints it on the last line.")
        @Argument(help: "The device's name, as `device list` shows it.") var name: String
        @Option(help: "Days until the new token stops working on its own (default: when the old one would have).") var expiresInDays: Int?
        @OptionGroup var storage: StorageOptions

        func run() async throws {
            let expiry = try expiryDate(expiresInDays)
            let server = try await storage.open()
            let token = try await server.store.devices.rotate(name: name, expiresAt: expiry)
            try await server.store.audit(AuditEntry(actor: "admin", action: "rotate-device", detail: name))
            await server.store.database.close()
            print("Device \(name) has a new token; the old one no longer works. The new token, shown only now:")
            print(token)
        }
    }
}

func expiryDate(_ days: Int?) throws -> Date? {
    guard let days else { return nil }
    guard (1...3650).contains(days) else { throw ValidationError("--expires-in-days must lie between 1 and 3650") }
    return Date().addingTimeInterval(Double(days) * 86_400)
}

func day(_ date: Date) -> String { String(ISO8601DateFormatter().string(from: date).prefix(10)) }

/// A password from standard input (one line), for `researcher add` and `researcher passwd`.
func passwordFromStandardInput(_ example: String) throws -> String {
    guard let line = readLine(strippingNewline: true), !line.isEmpty else {
        throw ValidationError("give the password on standard input, e.g. `\(example)`")
    }
    return line
}

struct ResearcherCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "researcher", abstract: "Manage researcher accounts: add, list, remove, set a new password.",
        subcommands: [Add.self, List.self, Remove.self, Passwd.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a researcher; reads the password (10 characters or more) from standard input.")

        @Argument(help: "The researcher's e-mail address, used to sign in.") var email: String
        @Option(help: "downloader (list and download) or viewer (list only).") var role = "downloader"
        @OptionGroup var storage: StorageOptions

        func run() async throws {
            guard let role = Role(rawValue: role) else {
                throw ValidationError("the role must be \(Role.allCases.map(\.rawValue).joined(separator: " or "))")
            }
            let password = try passwordFromStandardInput("echo \"$PASSWORD\" | headscan-server researcher add \(email) --data DIR")
            let server = try await storage.open()
            let researcher = try await server.store.researchers.add(email: email, password: password, role: role)
            try await server.store.audit(AuditEntry(actor: "admin", action: "add-researcher", detail: researcher.email))
            await server.store.database.close()
            print("Researcher \(researcher.email) added with the role \(researcher.role.rawValue).")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List researcher accounts and their roles.")
        @OptionGroup var storage: StorageOptions

        func run() async throws {
            let server = try await storage.open()
            let researchers = try await server.store.researchers.all()
            await server.store.database.close()
            print("EMAIL\tROLE")
            for r in researchers { print("\(r.email)\t\(r.role.rawValue)") }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete an account and sign it out everywhere.")
        @Argument(help: "The researcher's e-mail address.") var email: String
        @OptionGroup var storage: StorageOptions

        func run() async throws {
            let server = try await storage.open()
            try await server.store.researchers.remove(email: email)
            try await server.store.audit(AuditEntry(actor: "admin", action: "remove-researcher", detail: email.lowercased()))
            await server.store.database.close()
            print("Researcher \(email.lowercased()) removed.")
        }
    }

    struct Passwd: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set a new password (read from standard input) and sign the account out everywhere.")
        @Argument(help: "The researcher's e-mail address.") var email: String
        @OptionGroup var storage: StorageOptions

        func run() async throws {
            let password = try passwordFromStandardInput("echo \"$PASSWORD\" | headscan-server researcher passwd \(email) --data DIR")
            let server = try await storage.open()
            try await server.store.researchers.setPassword(email: email, password: password)
            try await server.store.audit(AuditEntry(actor: "admin", action: "set-password", detail: email.lowercased()))
            await server.store.database.close()
            print("Researcher \(email.lowercased()) has a new password and is signed out everywhere.")
        }
    }
}

struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit", abstract: "Read and check the audit log.",
        discussion: """
            Every listing, view, download, sign-in, refusal and administrator action is a row; each \
            row holds an HMAC over the row before it, its own ID and its fields, keyed with the data \
            folder's audit.key (never in the database), so `audit verify` finds a row changed, \
            inserted or deleted by whoever holds the database, even with the chain computed again. \
            The newest row is noted in the data folder's audit-head.json, so rows cut off the end or \
            an emptied log are found too. Back up audit.key with the data folder; a head kept \
            elsewhere by hand (--head) guards against someone who holds both.
            """,
        subcommands: [List.self, Verify.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the newest rows: time, actor, action, session, file, address, detail.")
        @Option(help: "How many rows.") var limit = 50
        @OptionGroup var storage: StorageOptions

        func run() async throws {
            let server = try await storage.open()
            let rows = try await server.store.auditLog(limit: max(1, limit))
            await server.store.database.close()
            print("ID\tTIME\tACTOR\tACTION\tSESSION\tFILE\tADDRESS\tDETAIL")
            let format = ISO8601DateFormatter()
            for row in rows {
                let fields = [
                    String(row.id), format.string(from: row.at), row.actor, row.action, row.sessionID ?? "-", row.fileName ?? "-", row.address ?? "-",
                    row.detail ?? "-",
                ]
                print(fields.map { $0.replacingOccurrences(of: "\t", with: " ").replacingOccurrences(of: "\n", with: " ") }.joined(separator: "\t"))
            }
        }
    }

    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check the whole chain; exits with 1 when a row was changed or deleted.",
            discussion: "Example, with a head kept from an earlier run: headscan-server audit verify --head 1843:5f0c... --data /srv/headscan")
        @Option(help: "A head printed by an earlier run, ID:HASH; the chain must still pass through it.") var head: String?
        @OptionGroup var storage: StorageOptions

        func run() async throws {
            let server = try await storage.open()
            let result = try await server.store.verifyAudit()
            var kept: String?
            if let head {
                let parts = head.split(separator: ":", maxSplits: 1)
                guard parts.count == 2, let id = Int64(parts[0]) else { throw ValidationError("--head is ID:HASH as `audit verify` printed it") }
                if try await server.store.auditLog(containing: id)?.hash != String(parts[1]) { kept = "row \(id) no longer has the hash kept" }
            }
            await server.store.database.close()
            if let id = result.brokenAt {
                print("The audit log is broken at row \(id): \(result.problem ?? "unknown"). Restore the database from a backup and compare.")
                throw ExitCode(1)
            }
            if let kept {
                print("The audit log was cut or rewritten: \(kept). Restore the database from a backup and compare.")
                throw ExitCode(1)
            }
            print(
                "The audit log holds: \(result.chained) chained rows (\(result.keyed) keyed)\(result.unchained > 0 ? " after \(result.unchained) written before chaining" : "")."
            )
            print("Head: row \(result.headID), \(result.headHash)")
        }
    }
}

/// The service runs its TUM exports in a process of its own (a damaged recording fails the
/// download, not the service); not for use by hand.
struct TUMExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tum-export", abstract: "Export one stored session in the TUM layout (the service's own helper).", shouldDisplay: false)
    @Option var blobs: String
    @Option var session: String
    @Option var folder: String

    func run() async throws {
        umask(0o077)
        HelperLimits.apply()
        let result = try IsolatedWork.tumExport(
            blobsRoot: URL(fileURLWithPath: blobs), sessionFile: URL(fileURLWithPath: session), folder: URL(fileURLWithPath: folder))
        Isolation.answer(result)
    }
}

/// The service's workers process each session in a process of their own; not for use by hand.
struct ProcessFolderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "process-folder", abstract: "Process one session folder in place (the service's own helper).", shouldDisplay: false)
    @Argument var folder: String

    func run() async throws {
        umask(0o077)
        HelperLimits.apply()
        do {
            let values = try IsolatedWork.processFolder(URL(fileURLWithPath: folder, isDirectory: true))
            Isolation.answer(try JSONEncoder().encode(values))
        } catch {
            // Only the error's kind: its text may quote the session's files.
            FileHandle.standardError.write(Data("processing stopped: \(IsolatedWork.summary(error))\n".utf8))
            throw ExitCode(1)
        }
    }
}

/// The service checks every uploaded file in a process of its own and keeps the encoding it
/// writes; not for use by hand.
struct InspectUploadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect-upload", abstract: "Check one uploaded file and write the service's encoding of it (the service's own helper).",
        shouldDisplay: false)
    @Option(help: "The staging folder: the files as 0, 1, …; the kept encodings are written beside them as 0.kept, ….") var folder: String = ""
    @Option(help: "The files' names in order (repeat).") var name: [String] = []
    @Option(help: "The session's name, which the documents must match.") var session: String?
    @Flag(help: "Check one upload after another, each asked for as a line of JSON on standard input (the service's pooled helper).")
    var serve = false

    func validate() throws {
        guard serve || !folder.isEmpty else { throw ValidationError("give the staging folder with --folder, or --serve") }
    }

    func run() async throws {
        umask(0o077)
        if serve {
            // Limits for the helper's whole life: the service stops a single check that runs
            // past its time, and replaces the helper after a number of uploads.
            HelperLimits.apply(processorSeconds: 4 * HelperLimits.processorSeconds)
            return IsolatedWork.serveInspections()
        }
        HelperLimits.apply()
        Isolation.answer(IsolatedWork.inspect(names: name, folder: URL(fileURLWithPath: folder, isDirectory: true), session: session))
    }
}
