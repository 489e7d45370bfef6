import Foundation
import Hummingbird
import ScanLibrary
import Upload

/// `/api/sessions`: the sessions researchers list and download, and devices their own.
struct SessionController {
    let server: ResearchServer

    /// The meshes the 3D view can show, by `view` parameter.
    static let meshViews = ["surface": ScanSession.meshFileName, "asymmetry": ScanSession.asymmetryFileName]

    func addRoutes(to group: RouterGroup<ServiceRequestContext>) {
        group.authenticated(server, "list").get(use: list)
        group.authenticated(server, "view").get(":id", use: view)
        group.authenticated(server, "download").get(":id/files/:name", use: file)
        group.authenticated(server, "view-mesh").get(":id/mesh", use: mesh)
        group.authenticated(server, "download").get(":id/download", use: download)
    }

    @Sendable func list(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let sessions = try await server.store.sessions.matching(try ResearchServer.filter(request, for: principal))
            .map { principal.mayDownload ? $0 : $0.withoutDigests }
        server.trail.later(
            AuditEntry(
                actor: principal.auditName, action: "list",
                detail: "\(sessions.count) sessions; \(LogText.label(request.uri.query ?? "", limit: 200))",
                address: server.address(request, context)))
        return try ResearchServer.json(SessionList(sessions: sessions))
    }

    @Sendable func view(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let session = try await server.visibleSession(context.parameters.get("id") ?? "", for: principal)
        server.trail.later(AuditEntry(actor: principal.auditName, action: "view", sessionID: session.id, address: server.address(request, context)))
        return try ResearchServer.json(principal.mayDownload ? session : session.withoutDigests)
    }

    @Sendable func file(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let session = try await server.visibleSession(context.parameters.get("id") ?? "", for: principal)
        try server.requireDownload(principal)
        let name = context.parameters.get("name") ?? ""
        guard UploadProtocol.isValidFileName(name), let file = session.files.first(where: { $0.name == name }) else {
            throw APIError(.notFound, "the session has no file named \"\(name.prefix(100))\"")
        }
        try await server.store.audit(
            AuditEntry(
                actor: principal.auditName, action: "download", sessionID: session.id, fileName: name, address: server.address(request, context)))
        return try await server.fileResponse(file, context: context, inline: request.uri.queryParameters.get("inline") == "1")
    }

    @Sendable func mesh(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
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
        try await server.store.audit(
            AuditEntry(
                actor: principal.auditName, action: "view-mesh", sessionID: session.id, fileName: mesh.name, address: server.address(request, context)
            ))
        return try await server.fileResponse(mesh, context: context, inline: true)
    }

    @Sendable func download(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let session = try await server.visibleSession(context.parameters.get("id") ?? "", for: principal)
        try server.requireDownload(principal)
        let format = try DownloadFormat.of(request)
        return try await server.archiveResponse(
            [session], name: session.name, format: format, principal: principal, address: server.address(request, context))
    }
}
