import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import Upload

/// Who sent a request.
public enum Principal: Sendable {
    case device(Device)
    case researcher(Researcher)

    var auditName: String {
        switch self {
        case .device(let device): "device:\(device.name)"
        case .researcher(let researcher): "researcher:\(researcher.email)"
        }
    }
}

/// The research data service: its store, files and routes.
public struct ResearchServer: Sendable {
    public let store: Store
    public let blobs: BlobStore
    public private(set) var uploads: UploadService
    /// Limits on wrong passwords and on bcrypt work; replace before serving.
    public var signInPolicy = SignInPolicy() {
        didSet { passwordChecks = PasswordChecks(policy: signInPolicy) }
    }
    private(set) var passwordChecks = PasswordChecks(policy: SignInPolicy())
    /// When set, upload checks, TUM exports and processing run in processes of their own (see
    /// `Isolation`); `headscan-server serve` always sets it.
    public var isolation: Isolation? {
        didSet { uploads.isolation = isolation }
    }
    /// Addresses of reverse proxies whose `X-Forwarded-For` names the client.
    public var trustedProxies: Set<String> = []
    /// Whether the service is reached through HTTPS (a TLS proxy): cookies are `Secure` and
    /// answers carry `Strict-Transport-Security`.
    public var behindTLS = false
    /// Limits on uploads per device and on the disk.
    public var limits = StorageLimits() {
        didSet { uploads.limits = limits }
    }
    let pages: Pages
    /// Debian's `libjs-three`, when installed.
    public var threeDirectory = "/usr/share/javascript/three"
    /// Largest JSON body (an upload's manifest).
    public static let maximumJSONBody = 256 * 1024
    public static let cookieName = "headscan_session"
    /// Where the service logs; never request content (names, documents), only IDs and statuses.
    public var logger = Logger(label: "headscan.server") {
        didSet { uploads.logger = logger }
    }

    /// Listings' and views' audit rows, written beside the answer.
    let trail: AuditTrail
    /// Sessions one TUM download exports (each export decodes a whole recording).
    public var tumSessionLimit = 50
    /// How many anonymous refusals per address reach the audit log.
    let anonymousRefusals = RefusalBudget()

    /// Waits until every audit row of earlier requests is written.
    public func flushAudit() async { await trail.flush() }

    public init(store: Store, blobs: BlobStore) throws {
        self.store = store
        trail = AuditTrail(store: store)
        self.blobs = blobs
        uploads = UploadService(store: store, blobs: blobs)
        pages = try Pages()
    }

    /// Opens the data folder and the database (SQLite in the folder unless `databaseURL` names
    /// a PostgreSQL database) and creates missing tables.
    public static func open(data: String, databaseURL: String?) async throws -> ResearchServer {
        let folder = URL(fileURLWithPath: data, isDirectory: true).standardizedFileURL
        do {
            try BlobStore.makeFolder(folder)
        } catch {
            throw DatabaseError("cannot create the data folder \(folder.path): \(error.localizedDescription)")
        }
        let database: any SQLDatabase
        if let databaseURL {
            database = try PostgresDatabase(url: databaseURL)
        } else {
            database = try SQLiteDatabase(path: folder.appendingPathComponent("headscan.sqlite").path)
        }
        do {
            try await database.migrate()
        } catch {
            await database.close()
            throw DatabaseError(
                "cannot prepare the database: \(String(reflecting: error)); check the URL, that the server runs and that the user may create tables")
        }
        return try ResearchServer(store: Store(database: database, seal: AuditSeal.open(folder: folder)), blobs: BlobStore(root: folder))
    }

    // MARK: authentication

    /// The device or researcher behind a request's credentials; 401 when there are none or they
    /// are wrong (written to the audit log with the address).
    func authenticate(_ request: Request, _ context: ServiceRequestContext) async throws -> Principal {
        let address = address(request, context)
        do {
            return try await principal(request, address: address)
        } catch let error as APIError {
            // A flood of anonymous requests writes a few rows a minute per address, each saying
            // how many were left out before it, not a row each.
            if let skipped = anonymousRefusals.admit(address) {
                let more = skipped > 0 ? " (and \(skipped) more refused before)" : ""
                try await store.audit(
                    AuditEntry(
                        actor: "anonymous", action: "refused", detail: "\(error.status.code) \(LogText.label(request.uri.path, limit: 100))\(more)",
                        address: address))
            }
            throw error
        }
    }

    private func principal(_ request: Request, address: String) async throws -> Principal {
        if let header = request.headers[.authorization] {
            if header.hasPrefix("Bearer ") {
                let token = String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)
                guard (10...200).contains(token.utf8.count), let device = try await store.devices.active(token: token) else {
                    throw APIError.unauthorized(
                        "the device token is not valid (revoked, expired or mistyped); ask the service's administrator for a new one",
                        challenge: false)
                }
                return .device(device)
            }
            if header.hasPrefix("Basic ") {
                guard let data = Data(base64Encoded: String(header.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
                    let text = String(data: data, encoding: .utf8), let colon = text.firstIndex(of: ":")
                else { throw APIError.unauthorized() }
                let email = String(text[..<colon]), password = String(text[text.index(after: colon)...])
                guard let researcher = try await verify(email: email, password: password, address: address) else {
                    throw APIError.unauthorized("the e-mail address or the password is wrong")
                }
                return .researcher(researcher)
            }
            throw APIError.unauthorized()
        }
        if let token = Self.cookie(Self.cookieName, in: request), (10...200).contains(token.utf8.count),
            let researcher = try await store.webSessions.researcher(token: token)
        {
            return .researcher(researcher)
        }
        throw APIError.unauthorized()
    }

    static func cookie(_ name: String, in request: Request) -> String? {
        for header in request.headers[values: .cookie] {
            for part in header.split(separator: ";") {
                let pair = part.trimmingCharacters(in: .whitespaces)
                if pair.hasPrefix(name + "=") { return String(pair.dropFirst(name.count + 1)) }
            }
        }
        return nil
    }

    /// A session the principal may see; 404 for others, so IDs of others' sessions reveal nothing.
    func visibleSession(_ id: String, for principal: Principal) async throws -> SessionSummary {
        guard id.utf8.count == 36, let (summary, owner) = try await store.sessions.find(id: id) else { throw APIError.notFound }
        if case .device(let device) = principal, device.id != owner { throw APIError.notFound }
        return summary
    }

    /// Whether the principal may download files: its own sessions for a device, the download
    /// role for a researcher.
    func requireDownload(_ principal: Principal) throws {
        if case .researcher(let researcher) = principal, researcher.role != .downloader {
            throw APIError(.forbidden, "your account may list sessions but not download them; ask the administrator for the downloader role")
        }
    }

    // MARK: helpers

    static func json<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(value)
        return Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The whole body, refused with 413 past `limit` bytes.
    static func body(_ request: Request, limit: Int) async throws -> Data {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
            throw APIError(.contentTooLarge, "the request body is larger than the \(limit) bytes allowed here")
        }
        let buffer: ByteBuffer
        do {
            let body = request.body
            buffer = try await Deadline.within(bodyDeadline) { try await body.collect(upTo: limit) }
        } catch let error as APIError {
            throw error
        } catch {
            throw APIError(.contentTooLarge, "the request body is larger than the \(limit) bytes allowed here")
        }
        return Data(buffer.readableBytesView)
    }

    /// How long a request body may take to arrive (an 8 MiB chunk at 70 KB/s): a client that
    /// trickles its body does not hold a connection without end.
    static let bodyDeadline = Duration.seconds(120)

    static func filter(_ query: Request) throws -> SessionFilter {
        let parameters = query.uri.queryParameters
        var filter = SessionFilter()
        func text(_ key: String) -> String? {
            parameters.get(key).flatMap { $0.isEmpty ? nil : String($0) }
        }
        func number(_ key: String) throws -> Double? {
            guard let value = text(key) else { return nil }
            guard let number = Double(value), number.isFinite else { throw APIError(.badRequest, "\(key) must be a number") }
            return number
        }
        func whole(_ key: String) throws -> Int? {
            guard let value = text(key) else { return nil }
            guard let number = Int(value) else { throw APIError(.badRequest, "\(key) must be a whole number") }
            return number
        }
        func day(_ key: String) throws -> String? {
            guard let value = text(key) else { return nil }
            let parts = value.split(separator: "-")
            guard value.utf8.count == 10, parts.count == 3, parts.allSatisfy({ Int($0) != nil }) else {
                throw APIError(.badRequest, "\(key) must be a date like 2026-05-01")
            }
            return value
        }
        filter.site = text("site")
        if let site = filter.site, site.utf8.count > 100 { throw APIError(.badRequest, "the site name is too long") }
        filter.from = try day("from")
        filter.to = try day("to")
        switch text("measured") {
        case nil, "any": break
        case "yes", "true": filter.measured = true
        case "no", "false": filter.measured = false
        default: throw APIError(.badRequest, "measured must be yes, no or any")
        }
        filter.cvaiMin = try number("cvaiMin")
        filter.cvaiMax = try number("cvaiMax")
        filter.ratingMin = try whole("ratingMin")
        filter.ratingMax = try whole("ratingMax")
        if let limit = try whole("limit") {
            guard (1...10_000).contains(limit) else { throw APIError(.badRequest, "limit must lie between 1 and 10000") }
            filter.limit = limit
        }
        return filter
    }

    /// `filter(_:)` narrowed, for a device, to its own sessions.
    static func filter(_ request: Request, for principal: Principal) throws -> SessionFilter {
        var filter = try filter(request)
        if case .device(let device) = principal { filter.deviceID = device.id }
        return filter
    }

    static func contentType(_ name: String) -> String {
        switch (name as NSString).pathExtension.lowercased() {
        case "json": "application/json"
        case "pdf": "application/pdf"
        case "html": "text/html; charset=utf-8"
        case "ply": "application/octet-stream"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "txt", "csv": "text/plain; charset=utf-8"
        default: "application/octet-stream"
        }
    }

    /// A stored file as the answer; `inline` shows it in the browser (sandboxed, no scripts).
    func fileResponse(_ file: SessionFile, context: some RequestContext, inline: Bool) async throws -> Response {
        guard let url = blobs.blobURL(file.sha256), FileManager.default.fileExists(atPath: url.path) else {
            logger.error("the stored file \(file.sha256) is missing from the data folder")
            throw APIError(.internalServerError, "the file is missing from the server's storage; tell the administrator")
        }
        let body = try await FileIO().loadFile(path: url.path, context: context)
        var headers: HTTPFields = [
            .contentType: Self.contentType(file.name),
            .contentLength: String(file.size),
            .contentSecurityPolicy: "sandbox",
            .xContentTypeOptions: "nosniff",
        ]
        headers[.contentDisposition] = "\(inline ? "inline" : "attachment"); filename=\"\(file.name)\""
        return Response(status: .ok, headers: headers, body: body)
    }
}

extension HTTPField.Name {
    static let xContentTypeOptions = Self("X-Content-Type-Options")!
    static let chunkChecksum = Self(UploadProtocol.chunkChecksumHeader)!
    static let referrerPolicyHeader = Self("Referrer-Policy")!
}

extension Principal {
    /// Whether it may download files (a device its own sessions', a researcher with the role).
    var mayDownload: Bool {
        if case .researcher(let researcher) = self { return researcher.role == .downloader }
        return true
    }
}

extension SessionSummary {
    /// The listing a viewer sees: names and sizes, but no digests of files it may not
    /// download (a digest confirms a guessed file).
    var withoutDigests: SessionSummary {
        var copy = self
        copy.files = files.map { SessionFile(name: $0.name, size: $0.size, sha256: "") }
        return copy
    }
}

/// At most `perMinute` audit rows of anonymous refusals per address and minute; the rest are
/// counted and named in the next row written.
final class RefusalBudget: Sendable {
    let perMinute = 10
    private let state = Locked<[String: (start: Double, written: Int, skipped: Int)]>([:])

    /// nil when this refusal is left out of the log; else how many were left out before it.
    func admit(_ address: String, now: Double = Date().timeIntervalSince1970) -> Int? {
        state.withLock { state in
            if state.count > 10_000 { state = state.filter { now - $0.value.start < 60 } }
            var entry = state[address] ?? (now, 0, 0)
            if now - entry.start >= 60 { entry = (now, 0, entry.skipped) }
            defer { state[address] = entry }
            guard entry.written < perMinute else {
                entry.skipped += 1
                return nil
            }
            entry.written += 1
            let skipped = entry.skipped
            entry.skipped = 0
            return skipped
        }
    }
}

/// Work that must finish within a time: past it the work is cancelled and the request answered
/// with 408.
enum Deadline {
    static func within<T: Sendable>(_ limit: Duration, _ work: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await work() }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else {
                throw APIError(.requestTimeout, "the request did not arrive within \(limit.components.seconds) s; send it again")
            }
            return value
        }
    }
}
