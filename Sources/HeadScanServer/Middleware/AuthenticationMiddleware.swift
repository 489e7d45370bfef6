import Hummingbird

/// Lets an API request through to its route only with a device token or a researcher's
/// credentials (HTTP Basic or the pages' cookie), and puts the caller in the context. Every
/// refusal on the way, its own or the route's, is written to the audit log with who, what and
/// from where (never the request's content): one middleware per route, since `action` names
/// what the route does.
struct AuthenticationMiddleware: RouterMiddleware {
    typealias Context = ServiceRequestContext

    let server: ResearchServer
    /// The audit log's name for the route's work, e.g. `download`.
    let action: String
    /// Researchers are refused (403): the upload routes.
    var devicesOnly = false

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let principal = try await server.authenticate(request, context)
        let address = server.address(request, context)
        var context = context
        context.principal = principal
        do {
            if devicesOnly, case .researcher = principal { throw APIError.devicesOnly }
            return try await next(request, context)
        } catch let error as APIError {
            try await server.store.audit(
                AuditEntry(
                    actor: principal.auditName, action: "refused", detail: "\(action) \(error.status.code) \(request.uri.path.prefix(200))",
                    address: address))
            throw error
        }
    }
}

extension RouterGroup<ServiceRequestContext> {
    /// A group whose routes only authenticated callers reach; `action` names their refusals in
    /// the audit log.
    func authenticated(_ server: ResearchServer, _ action: String, devicesOnly: Bool = false) -> RouterGroup<ServiceRequestContext> {
        group().add(middleware: AuthenticationMiddleware(server: server, action: action, devicesOnly: devicesOnly))
    }
}
