import Hummingbird

/// Lets a page request through only for a signed-in researcher (the sign-in cookie or HTTP
/// Basic) and puts them in the context; anyone else is sent to the sign-in page.
struct PageSignInMiddleware: RouterMiddleware {
    typealias Context = ServiceRequestContext

    let server: ResearchServer

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let researcher = try await researcher(request, context) else { return ResearchServer.toLogin }
        var context = context
        context.principal = .researcher(researcher)
        return try await next(request, context)
    }

    /// nil (to the sign-in page) for a request without credentials, with wrong ones or with a
    /// device's; other refusals (too many wrong passwords) stand.
    private func researcher(_ request: Request, _ context: Context) async throws -> Researcher? {
        guard request.headers[.authorization] != nil || ResearchServer.cookie(ResearchServer.cookieName, in: request) != nil else { return nil }
        do {
            guard case .researcher(let researcher) = try await server.authenticate(request, context) else { return nil }
            return researcher
        } catch let error as APIError where error.status == .unauthorized {
            return nil
        }
    }
}

extension RouterGroup<ServiceRequestContext> {
    /// A group of pages only signed-in researchers see.
    func signedIn(_ server: ResearchServer) -> RouterGroup<ServiceRequestContext> {
        group().add(middleware: PageSignInMiddleware(server: server))
    }
}
