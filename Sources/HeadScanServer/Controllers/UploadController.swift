import Foundation
import Hummingbird
import Upload

/// `/api/uploads`: the upload protocol (see `UploadService`), for devices only.
struct UploadController {
    let server: ResearchServer

    func addRoutes(to group: RouterGroup<ServiceRequestContext>) {
        group.authenticated(server, "upload-start", devicesOnly: true).post(use: start)
        group.authenticated(server, "upload-status", devicesOnly: true).get(":id", use: status)
        group.authenticated(server, "upload-chunk", devicesOnly: true).put(":id/files/:name/chunks/:index", use: chunk)
        group.authenticated(server, "upload-complete", devicesOnly: true).post(":id/complete", use: complete)
    }

    @Sendable func start(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        let device = try context.requireDevice()
        let data = try await ResearchServer.body(request, limit: ResearchServer.maximumJSONBody)
        let create: CreateUploadRequest
        do { create = try JSONDecoder().decode(CreateUploadRequest.self, from: data) } catch {
            throw APIError(.badRequest, "the body must be JSON with sessionName, chunkSize and files (name, size, sha256)")
        }
        return try ResearchServer.json(try await server.uploads.create(create, device: device))
    }

    @Sendable func status(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        let upload = try await server.uploads.ownUpload(context.parameters.get("id") ?? "", device: try context.requireDevice())
        return try ResearchServer.json(try await server.uploads.status(upload))
    }

    @Sendable func chunk(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        let status = try await server.uploads.putChunk(
            uploadID: context.parameters.get("id") ?? "", fileName: context.parameters.get("name") ?? "",
            index: context.parameters.get("index") ?? "", checksum: request.headers[.chunkChecksum], device: try context.requireDevice(),
            body: { try await ResearchServer.body(request, limit: UploadProtocol.maximumChunkSize) })
        return try ResearchServer.json(status)
    }

    @Sendable func complete(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        let device = try context.requireDevice()
        _ = try await ResearchServer.body(request, limit: 1024)
        let status = try await server.uploads.complete(uploadID: context.parameters.get("id") ?? "", device: device)
        try await server.store.audit(
            AuditEntry(
                actor: Principal.device(device).auditName, action: "upload-complete", sessionID: status.sessionID,
                address: server.address(request, context)))
        return try ResearchServer.json(status)
    }
}
