import Hummingbird
import NIOCore

extension ResearchServer {
    /// All routes: the JSON API (see `OpenAPIDocument`), the researchers' pages and their
    /// static files, one controller per resource.
    public func router() -> Router<ServiceRequestContext> {
        let router = Router(context: ServiceRequestContext.self)
        router.middlewares.add(SecurityHeadersMiddleware(strictTransport: behindTLS))
        ServiceController().addRoutes(to: router.group())
        UploadController(server: self).addRoutes(to: router.group("/api/uploads"))
        SessionController(server: self).addRoutes(to: router.group("/api/sessions"))
        DatasetController(server: self).addRoutes(to: router.group("/api/download"))
        SignInController(server: self).addRoutes(to: router.group())
        SessionPageController(server: self).addRoutes(to: router.group())
        StaticFileController(server: self).addRoutes(to: router.group("/static"))
        return router
    }

    /// An application listening on `host:port`; a connection idle for `idleTimeout` (a client
    /// that stopped sending its headers, say) is closed.
    public func application(host: String, port: Int, idleTimeout: Duration = .seconds(30)) -> some ApplicationProtocol {
        let idle = TimeAmount.nanoseconds(Int64(idleTimeout.components.seconds) * 1_000_000_000 + idleTimeout.components.attoseconds / 1_000_000_000)
        return Application(
            router: router(), server: .http1(configuration: .init(idleTimeout: idle)),
            configuration: .init(address: .hostname(host, port: port), serverName: "headscan-server"), logger: logger)
    }
}
