import Foundation
import Hummingbird
import Upload

extension ResearchServer {
    /// All routes: the JSON API, the researchers' pages and their static files.
    public func router() -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.middlewares.add(SecurityHeadersMiddleware())
        addAPIRoutes(router)
        addPageRoutes(router)
        return router
    }

    /// An application listening on `host:port`.
    public func application(host: String, port: Int) -> some ApplicationProtocol {
        Application(router: router(), configuration: .init(address: .hostname(host, port: port), serverName: "headscan-server"), logger: logger)
    }

    func addAPIRoutes(_ router: Router<BasicRequestContext>) {
        let server = self
        router.get("/healthz") { _, _ in "ok" }
        router.get("/openapi.yaml") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/yaml; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: OpenAPIDocument.yaml)))
        }

        router.post("/api/uploads") { request, _ -> Response in
            let device = try await server.device(request)
            let data = try await Self.body(request, limit: Self.maximumJSONBody)
            let create: CreateUploadRequest
            do { create = try JSONDecoder().decode(CreateUploadRequest.self, from: data) } catch {
                throw APIError(.badRequest, "the body must be JSON with sessionName, chunkSize and files (name, size, sha256)")
            }
            return try Self.json(try await server.uploads.create(create, device: device))
        }
        router.get("/api/uploads/:id") { request, context -> Response in
            let device = try await server.device(request)
            let upload = try await server.uploads.ownUpload(context.parameters.get("id") ?? "", device: device)
            return try Self.json(try await server.uploads.status(upload))
        }
        router.put("/api/uploads/:id/files/:name/chunks/:index") { request, context -> Response in
            let device = try await server.device(request)
            let status = try await server.uploads.putChunk(
                uploadID: context.parameters.get("id") ?? "", fileName: context.parameters.get("name") ?? "",
                index: context.parameters.get("index") ?? "", checksum: request.headers[.chunkChecksum], device: device,
                body: { try await Self.body(request, limit: UploadProtocol.maximumChunkSize) })
            return try Self.json(status)
        }
        router.post("/api/uploads/:id/complete") { request, context -> Response in
            let device = try await server.device(request)
            _ = try await Self.body(request, limit: 1024)
            return try Self.json(try await server.uploads.complete(uploadID: context.parameters.get("id") ?? "", device: device))
        }

        router.get("/api/sessions") { request, _ -> Response in
            let principal = try await server.authenticate(request)
            var filter = try Self.filter(request)
            if case .device(let device) = principal { filter.deviceID = device.id }
            return try Self.json(SessionList(sessions: try await server.store.sessions(filter)))
        }
        router.get("/api/sessions/:id") { request, context -> Response in
            let principal = try await server.authenticate(request)
            return try Self.json(try await server.visibleSession(context.parameters.get("id") ?? "", for: principal))
        }
        router.get("/api/sessions/:id/files/:name") { request, context -> Response in
            let principal = try await server.authenticate(request)
            let session = try await server.visibleSession(context.parameters.get("id") ?? "", for: principal)
            try server.requireDownload(principal)
            let name = context.parameters.get("name") ?? ""
            guard UploadProtocol.isValidFileName(name), let file = session.files.first(where: { $0.name == name }) else {
                throw APIError(.notFound, "the session has no file named \"\(name.prefix(100))\"")
            }
            try await server.store.audit(actor: principal.auditName, action: "download", sessionID: session.id, fileName: name)
            let inline = request.uri.queryParameters.get("inline") == "1"
            return try await server.fileResponse(file, context: context, inline: inline)
        }
        router.get("/api/sessions/:id/mesh") { request, context -> Response in
            let principal = try await server.authenticate(request)
            let session = try await server.visibleSession(context.parameters.get("id") ?? "", for: principal)
            guard let mesh = session.files.first(where: { $0.name == "head.ply" }) else {
                throw APIError(.notFound, "the session has no head mesh yet")
            }
            try await server.store.audit(actor: principal.auditName, action: "view-mesh", sessionID: session.id, fileName: mesh.name)
            return try await server.fileResponse(mesh, context: context, inline: true)
        }
        router.get("/api/sessions/:id/download") { request, context -> Response in
            let principal = try await server.authenticate(request)
            let session = try await server.visibleSession(context.parameters.get("id") ?? "", for: principal)
            try server.requireDownload(principal)
            let format = try DownloadFormat.of(request)
            return try await server.archiveResponse([session], name: session.name, format: format, principal: principal)
        }
        router.get("/api/download") { request, _ -> Response in
            let principal = try await server.authenticate(request)
            try server.requireDownload(principal)
            let format = try DownloadFormat.of(request)
            var filter = try Self.filter(request)
            if case .device(let device) = principal { filter.deviceID = device.id }
            let sessions = try await server.store.sessions(filter)
            guard !sessions.isEmpty else { throw APIError(.notFound, "no session matches the filters") }
            return try await server.archiveResponse(sessions, name: "headscan-dataset", format: format, principal: principal)
        }
    }
}

/// Headers every answer carries: no sniffing, no framing, scripts only from this server.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as APIError {
            response = try error.response(from: request, context: context)
        } catch let error as HTTPError {
            response = try APIError(error.status, error.body ?? error.status.reasonPhrase).response(from: request, context: context)
        }
        response.headers[.xContentTypeOptions] = "nosniff"
        if response.headers[.contentSecurityPolicy] == nil {
            response.headers[.contentSecurityPolicy] = "default-src 'self'; img-src 'self' data:; style-src 'self'; frame-ancestors 'none'; form-action 'self'"
        }
        response.headers[.referrerPolicyHeader] = "no-referrer"
        return response
    }
}
