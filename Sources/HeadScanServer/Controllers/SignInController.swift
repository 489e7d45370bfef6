import Foundation
import Hummingbird

/// `/login` and `/logout`: the researchers' sign-in form and its cookie.
struct SignInController {
    let server: ResearchServer

    func addRoutes(to group: RouterGroup<ServiceRequestContext>) {
        group.get("login", use: form)
        group.post("login", use: signIn)
        group.post("logout", use: signOut)
    }

    @Sendable func form(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        return server.pages.render(
            "login", ["failed": query.get("failed") != nil, "throttled": query.get("throttled") != nil], request: request, secure: server.behindTLS)
    }

    @Sendable func signIn(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        let form = try await Self.checkedForm(request)
        let address = server.address(request, context)
        var researcher: Researcher?
        do {
            if let email = form["email"], let password = form["password"] {
                researcher = try await server.verify(email: email, password: password, address: address)
            }
        } catch let error as APIError where error.status == .tooManyRequests {
            return Self.redirect("/login?throttled=1")
        }
        guard let researcher else { return Self.redirect("/login?failed=1") }
        try await server.store.audit(AuditEntry(actor: Principal.researcher(researcher).auditName, action: "sign-in", address: address))
        let token = try await server.store.webSessions.create(researcherID: researcher.id)
        return Self.redirect("/sessions", cookie: cookie(token, maxAge: 28800))
    }

    @Sendable func signOut(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        _ = try await Self.checkedForm(request)
        if let token = ResearchServer.cookie(ResearchServer.cookieName, in: request) {
            if let researcher = try await server.store.webSessions.researcher(token: token) {
                try await server.store.audit(
                    AuditEntry(
                        actor: Principal.researcher(researcher).auditName, action: "sign-out", address: server.address(request, context)))
            }
            try await server.store.webSessions.delete(token)
        }
        return Self.redirect("/login", cookie: cookie("", maxAge: 0))
    }

    /// The posted form's fields, once its form token shows it came from this site's page.
    static func checkedForm(_ request: Request) async throws -> [String: String] {
        let data = try await ResearchServer.body(request, limit: 8 * 1024)
        let form = ResearchServer.form(String(decoding: data, as: UTF8.self))
        try FormToken.check(request, form: form)
        return form
    }

    /// The sign-in cookie: no script reads it, no other site's request carries it.
    func cookie(_ token: String, maxAge: Int) -> String {
        "\(ResearchServer.cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict; Max-Age=\(maxAge)\(server.behindTLS ? "; Secure" : "")"
    }

    static func redirect(_ location: String, cookie: String? = nil) -> Response {
        var headers: HTTPFields = [.location: location]
        if let cookie { headers[.setCookie] = cookie }
        return Response(status: .seeOther, headers: headers)
    }
}
