import Foundation
import Hummingbird
import ScanLibrary
import Upload

/// `/sessions`: the researchers' pages, the filtered list and one session with its 3D view.
struct SessionPageController {
    let server: ResearchServer

    func addRoutes(to group: RouterGroup<ServiceRequestContext>) {
        group.get { _, _ in Response(status: .seeOther, headers: [.location: "/sessions"]) }
        let pages = group.signedIn(server)
        pages.get("sessions", use: list)
        pages.get("sessions/:id", use: session)
    }

    @Sendable func list(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        let researcher = try context.requireResearcher()
        let filter = try ResearchServer.filter(request)
        let sessions = try await server.store.sessions.matching(filter)
        server.trail.later(
            AuditEntry(
                actor: Principal.researcher(researcher).auditName, action: "list", detail: "\(sessions.count) sessions; \(request.uri.query ?? "")",
                address: server.address(request, context)))
        let values = Self.listValues(filter, query: request.uri.query ?? "").merging([
            "email": researcher.email, "canDownload": researcher.role == .downloader,
            "count": sessions.count, "sessions": sessions.map(ResearchServer.row),
        ]) { _, new in new }
        return server.pages.render("list", values, request: request, secure: server.behindTLS)
    }

    /// The filter form as the request filled it, and the download links with its query.
    static func listValues(_ filter: SessionFilter, query: String) -> [String: Any] {
        [
            "downloadQuery": query.isEmpty ? "" : "?" + query,
            "tumQuery": (query.isEmpty ? "?" : "?" + query + "&") + "format=tum",
            "site": filter.site ?? "", "from": filter.from ?? "", "to": filter.to ?? "",
            "cvaiMin": filter.cvaiMin.map { String($0) } ?? "", "cvaiMax": filter.cvaiMax.map { String($0) } ?? "",
            "ratingMin": filter.ratingMin.map { String($0) } ?? "", "ratingMax": filter.ratingMax.map { String($0) } ?? "",
            "measuredYes": filter.measured == true, "measuredNo": filter.measured == false, "measuredAny": filter.measured == nil,
        ]
    }

    @Sendable func session(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        let researcher = try context.requireResearcher()
        let session = try await server.visibleSession(context.parameters.get("id") ?? "", for: .researcher(researcher))
        server.trail.later(
            AuditEntry(
                actor: Principal.researcher(researcher).auditName, action: "view", sessionID: session.id, address: server.address(request, context)))
        let values = ResearchServer.row(session).merging(sessionValues(session, for: researcher)) { _, new in new }
        return server.pages.render("session", values, request: request, secure: server.behindTLS)
    }

    func sessionValues(_ session: SessionSummary, for researcher: Researcher) -> [String: Any] {
        let names = Set(session.files.map(\.name))
        let direction = server.meshViewDirection(session)
        let downloader = researcher.role == .downloader
        return [
            "hasViewDirection": direction != nil, "viewFrom": direction.map { MeshViewDirection.attribute($0.toCamera) } ?? "",
            "viewUp": direction.map { MeshViewDirection.attribute($0.up) } ?? "",
            "email": researcher.email, "canDownload": downloader,
            "files": session.files.map { ["name": $0.name, "size": ResearchServer.size($0.size), "sha256": downloader ? $0.sha256 : ""] },
            "hasReport": names.contains("report.pdf"), "hasHTMLReport": names.contains("report.html"),
            // The 3D view loads the whole mesh: only for accounts that may download.
            "hasMesh": names.contains(ScanSession.meshFileName) && downloader, "hasThree": server.threeAvailable,
            "hasAsymmetry": names.contains(ScanSession.asymmetryFileName),
            "hasScan": names.contains(ScanSession.scanFileName),
        ]
    }
}
