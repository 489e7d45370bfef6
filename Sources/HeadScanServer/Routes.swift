import Foundation
import Hummingbird
import NIOCore
import ScanLibrary
import Upload

extension ResearchServer {
    /// The meshes the 3D view can show, by `view` parameter.
    static let meshViews = ["surface": ScanSession.meshFileName, "asymmetry": ScanSession.asymmetryFileName]

    /// All routes: the JSON API, the researchers' pages and their static files.
    public func router() -> Router<ServiceRequestContext> {
        let router = Router(context: ServiceRequestContext.self)
        router.middlewares.add(SecurityHeadersMiddleware(strictTransport: behindTLS))
        addAPIRoutes(router)
        addPageRoutes(router)
        return router
    }

    /// An application listening on `host:port`.
    /// An application listening on `host:port`; a connection idle for `idleTimeout` (a client
    /// that stopped sending its headers, say) is closed.
    public func application(host: String, port: Int, idleTimeout: Duration = .seconds(30)) -> some ApplicationProtocol {
        let idle = TimeAmount.nanoseconds(Int64(idleTimeout.components.seconds) * 1_000_000_000 + idleTimeout.components.attoseconds / 1_000_000_000)
        return Application(
            router: router(), server: .http1(configuration: .init(idleTimeout: idle)),
            configuration: .init(address: .hostname(host, port: port), serverName: "headscan-server"), logger: logger)
    }

    func addAPIRoutes(_ router: Router<ServiceRequestContext>) {
        let server = self
        router.get("/healthz") { _, _ in "ok" }
        router.get("/openapi.yaml") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/yaml; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: OpenAPIDocument.yaml)))
        }

        router.post("/api/uploads") { request, context -> Response in
            try await server.asDevice(request, context, action: "upload-start") { device in
                let data = try await Self.body(request, limit: Self.maximumJSONBody)
                let create: CreateUploadRequest
                do { create = try JSONDecoder().decode(CreateUploadRequest.self, from: data) } catch {
                    throw APIError(.badRequest, "the body must be JSON with sessionName, chunkSize and files (name, size, sha256)")
                }
                return try Self.json(try await server.uploads.create(create, device: device))
            }
        }
        router.get("/api/uploads/:id") { request, context -> Response in
            try await server.asDevice(request, context, action: "upload-status") { device in
                let upload = try await server.uploads.ownUpload(context.parameters.get("id") ?? "", device: device)
                return try Self.json(try await server.uploads.status(upload))
            }
        }
        router.put("/api/uploads/:id/files/:name/chunks/:index") { request, context -> Response in
            try await server.asDevice(request, context, action: "upload-chunk") { device in
                let status = try await server.uploads.putChunk(
                    uploadID: context.parameters.get("id") ?? "", fileName: context.parameters.get("name") ?? "",
                    index: context.parameters.get("index") ?? "", checksum: request.headers[.chunkChecksum], device: device,
                    body: { try await Self.body(request, limit: UploadProtocol.maximumChunkSize) })
                return try Self.json(status)
            }
        }
        router.post("/api/uploads/:id/complete") { request, context -> Response in
            try await server.asDevice(request, context, action: "upload-complete") { device in
                _ = try await Self.body(request, limit: 1024)
                let status = try await server.uploads.complete(uploadID: context.parameters.get("id") ?? "", device: device)
                try await server.store.audit(AuditEntry(
                    actor: Principal.device(device).auditName, action: "upload-complete", sessionID: status.sessionID,
                    address: server.address(request, context)))
                return try Self.json(status)
            }
        }

        router.get("/api/sessions") { request, context -> Response in
            try await server.audited(request, context, action: "list") { principal, address in
                var filter = try Self.filter(request)
                if case .device(let device) = principal { filter.deviceID = device.id }
                let sessions = try await server.store.sessions.matching(filter).map { principal.mayDownload ? $0 : $0.withoutDigests }
                server.trail.later(AuditEntry(
                    actor: principal.auditName, action: "list", detail: "\(sessions.count) sessions; \(LogText.label(request.uri.query ?? "", limit: 200))", address: address))
                return try Self.json(SessionList(sessions: sessions))
            }
        }
        router.get("/api/sessions/:id") { request, context -> Response in
            try await server.audited(request, context, action: "view") { principal, address in
                let session = try await server.visibleSession(context.parameters.get("id") ?? "", for: principal)
                server.trail.later(AuditEntry(actor: principal.auditName, action: "view", sessionID: session.id, address: address))
                return try Self.json(principal.mayDownload ? session : session.withoutDigests)
            }
        }
        router.get("/api/sessions/:id/files/:name") { request, context -> Response in
            try await server.audited(request, context, action: "download") { principal, address in
                let session = try await server.visibleSession(context.parameters.get("id") ?? "", for: principal)
                try server.requireDownload(principal)
                let name = context.parameters.get("name") ?? ""
                guard UploadProtocol.isValidFileName(name), let file = session.files.first(where: { $0.name == name }) else {
                    throw APIError(.notFound, "the session has no file named \"\(name.prefix(100))\"")
                }
                try await server.store.audit(AuditEntry(actor: principal.auditName, action: "download", sessionID: session.id, fileName: name, address: address))
                let inline = request.uri.queryParameters.get("inline") == "1"
                return try await server.fileResponse(file, context: context, inline: inline)
            }
        }
        router.get("/api/sessions/:id/mesh") { request, context -> Response in
            try await server.audited(request, context, action: "view-mesh") { principal, address in
                let session = try await server.visibleSession(context.parameters.get("id") ?? "", for: principal)
                // The mesh is the head's full surface: as much a download as any file.
                try server.requireDownload(principal)
                let view = request.uri.queryParameters.get("view") ?? "surface"
                guard let name = Self.meshViews[view] else {
                    throw APIError(.badRequest, "view must be surface or asymmetry")
                }
                guard let mesh = session.files.first(where: { $0.name == name }) else {
                    throw APIError(.notFound, view == "asymmetry" ? "the session has no asymmetry map; process it again" : "the session has no head mesh yet")
                }
                try await server.store.audit(AuditEntry(actor: principal.auditName, action: "view-mesh", sessionID: session.id, fileName: mesh.name, address: address))
                return try await server.fileResponse(mesh, context: context, inline: true)
            }
        }
        router.get("/api/sessions/:id/download") { request, context -> Response in
            try await server.audited(request, context, action: "download") { principal, address in
                let session = try await server.visibleSession(context.parameters.get("id") ?? "", for: principal)
                try server.requireDownload(principal)
                let format = try DownloadFormat.of(request)
                return try await server.archiveResponse([session], name: session.name, format: format, principal: principal, address: address)
            }
        }
        router.get("/api/download") { request, context -> Response in
            try await server.audited(request, context, action: "download") { principal, address in
                try server.requireDownload(principal)
                let format = try DownloadFormat.of(request)
                var filter = try Self.filter(request)
                if case .device(let device) = principal { filter.deviceID = device.id }
                let sessions = try await server.store.sessions.matching(filter)
                guard !sessions.isEmpty else { throw APIError(.notFound, "no session matches the filters") }
                return try await server.archiveResponse(sessions, name: "headscan-dataset", format: format, principal: principal, address: address)
            }
        }
    }

    /// Runs `body` for an authenticated principal; a refusal on the way is written to the audit
    /// log with who, what and from where (never the request's content).
    func audited(
        _ request: Request, _ context: ServiceRequestContext, action: String, _ body: (Principal, String) async throws -> Response
    ) async throws -> Response {
        let principal = try await authenticate(request, context)
        let address = address(request, context)
        do {
            return try await body(principal, address)
        } catch let error as APIError {
            try await store.audit(AuditEntry(
                actor: principal.auditName, action: "refused", detail: "\(action) \(error.status.code) \(request.uri.path.prefix(200))", address: address))
            throw error
        }
    }

    /// `audited` for the upload routes, which only devices use.
    func asDevice(_ request: Request, _ context: ServiceRequestContext, action: String, _ body: (Device) async throws -> Response) async throws -> Response {
        try await audited(request, context, action: action) { principal, _ in
            guard case .device(let device) = principal else {
                throw APIError(.forbidden, "only devices upload sessions; use a device token (`headscan-server device add NAME`)")
            }
            return try await body(device)
        }
    }
}

/// Headers every answer carries: no sniffing, no framing, scripts only from this server. Errors
/// that are no API answer (the database, the disk) become one, with a body that says what to do.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Behind TLS: browsers are told to use HTTPS only, for a year.
    var strictTransport = false

    /// The answer to an error no route turned into one.
    static func unexpected(_ error: any Error) -> APIError {
        if DiskSpace.isFull(error) { return StorageLimits.noSpace("this request") }
        return APIError(.internalServerError, "the service could not finish this request; try again in a minute, and tell the administrator if it stays")
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as APIError {
            response = try error.response(from: request, context: context)
        } catch let error as HTTPError {
            response = try APIError(error.status, error.body ?? error.status.reasonPhrase).response(from: request, context: context)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            // Never an empty 500: a full disk is a 503 to come back after, anything else says so.
            response = try Self.unexpected(error).response(from: request, context: context)
        }
        response.headers[.xContentTypeOptions] = "nosniff"
        if response.headers[.contentSecurityPolicy] == nil {
            response.headers[.contentSecurityPolicy] = "default-src 'self'; img-src 'self' data:; style-src 'self'; frame-ancestors 'none'; form-action 'self'"
        }
        // Not "no-referrer": under it browsers send `Origin: null` with the pages' own forms,
        // which the forgery check must refuse. Nothing is sent to other sites either way.
        response.headers[.referrerPolicyHeader] = "same-origin"
        if strictTransport { response.headers[.strictTransportSecurity] = "max-age=31536000; includeSubDomains" }
        return response
    }
}

/// Whether an error says the disk is full (or the database could not write for that reason).
enum DiskSpace {
    static func isFull(_ error: any Error) -> Bool {
        if let error = error as? CocoaError, error.code == .fileWriteOutOfSpace { return true }
        if let error = error as? POSIXError, error.code == .ENOSPC || error.code == .EDQUOT { return true }
        let text = String(describing: error).lowercased()
        return text.contains("no space left") || text.contains("disk is full") || text.contains("database or disk is full")
    }
}
