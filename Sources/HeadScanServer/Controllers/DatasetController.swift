import Hummingbird

/// `/api/download`: every session matching the filters as one archive.
struct DatasetController {
    let server: ResearchServer

    func addRoutes(to group: RouterGroup<ServiceRequestContext>) {
        group.authenticated(server, "download").get(use: download)
    }

    @Sendable func download(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        try server.requireDownload(principal)
        let format = try DownloadFormat.of(request)
        let sessions = try await server.store.sessions.matching(try ResearchServer.filter(request, for: principal))
        guard !sessions.isEmpty else { throw APIError(.notFound, "no session matches the filters") }
        return try await server.archiveResponse(
            sessions, name: "headscan-dataset", format: format, principal: principal, address: server.address(request, context))
    }
}
