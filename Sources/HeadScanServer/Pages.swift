import Foundation
import Hummingbird
import Mustache
import ScanLibrary
import Upload

/// The researchers' pages, rendered on the server from Mustache templates.
struct Pages: Sendable {
    let library: MustacheLibrary

    init() throws {
        MustacheContentTypes.register(ScalarHTML(), named: ScalarHTML.name)
        var library = MustacheLibrary()
        for (name, text) in PageTemplates.all {
            // Every template, partials too (they start over with the library's escaping).
            try library.register("{{% CONTENT_TYPE: \(ScalarHTML.name)}}" + text, named: name)
        }
        self.library = library
    }

    /// A page with the request's form token in its forms (set as a cookie when new).
    func render(_ name: String, _ values: [String: Any], request: Request, secure: Bool) -> Response {
        let (token, isNew) = FormToken.of(request)
        var values = values
        values["csrf"] = token
        let html = library.render(values, withTemplate: name) ?? "template \(name) is missing"
        var response = Response(
            status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"], body: .init(byteBuffer: ByteBuffer(string: html)))
        if isNew { response.headers[.setCookie] = FormToken.cookie(token, secure: secure) }
        return response
    }
}

/// HTML escaping per Unicode scalar: a quote followed by a combining accent is one Swift
/// `Character` that escaping per character would let through unescaped.
struct ScalarHTML: MustacheContentType {
    static let name = "HTML_SCALARS"

    func escapeText(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}

extension ResearchServer {
    func addPageRoutes(_ router: Router<ServiceRequestContext>) {
        let server = self
        router.get("/") { _, _ in Response(status: .seeOther, headers: [.location: "/sessions"]) }
        router.get("/login") { request, _ in
            let query = request.uri.queryParameters
            return server.pages.render(
                "login", ["failed": query.get("failed") != nil, "throttled": query.get("throttled") != nil], request: request, secure: server.behindTLS)
        }
        router.post("/login") { request, context -> Response in
            let data = try await Self.body(request, limit: 8 * 1024)
            let form = Self.form(String(decoding: data, as: UTF8.self))
            try FormToken.check(request, form: form)
            let address = server.address(request, context)
            var researcher: Researcher?
            do {
                if let email = form["email"], let password = form["password"] {
                    researcher = try await server.verify(email: email, password: password, address: address)
                }
            } catch let error as APIError where error.status == .tooManyRequests {
                return Response(status: .seeOther, headers: [.location: "/login?throttled=1"])
            }
            guard let researcher else { return Response(status: .seeOther, headers: [.location: "/login?failed=1"]) }
            try await server.store.audit(AuditEntry(actor: Principal.researcher(researcher).auditName, action: "sign-in", address: address))
            let token = try await server.store.webSessions.create(researcherID: researcher.id)
            var headers: HTTPFields = [.location: "/sessions"]
            headers[.setCookie] = "\(Self.cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict; Max-Age=28800\(server.behindTLS ? "; Secure" : "")"
            return Response(status: .seeOther, headers: headers)
        }
        router.post("/logout") { request, context -> Response in
            let data = try await Self.body(request, limit: 8 * 1024)
            try FormToken.check(request, form: Self.form(String(decoding: data, as: UTF8.self)))
            if let token = Self.cookie(Self.cookieName, in: request) {
                if let researcher = try await server.store.webSessions.researcher(token: token) {
                    try await server.store.audit(AuditEntry(
                        actor: Principal.researcher(researcher).auditName, action: "sign-out", address: server.address(request, context)))
                }
                try await server.store.webSessions.delete(token)
            }
            var headers: HTTPFields = [.location: "/login"]
            headers[.setCookie] = "\(Self.cookieName)=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0\(server.behindTLS ? "; Secure" : "")"
            return Response(status: .seeOther, headers: headers)
        }
        router.get("/sessions") { request, context -> Response in
            guard let researcher = try await server.pageResearcher(request, context) else { return Self.toLogin }
            let filter = try Self.filter(request)
            let sessions = try await server.store.sessions.matching(filter)
            server.trail.later(AuditEntry(
                actor: Principal.researcher(researcher).auditName, action: "list", detail: "\(sessions.count) sessions; \(request.uri.query ?? "")",
                address: server.address(request, context)))
            let query = request.uri.query ?? ""
            return server.pages.render("list", [
                "email": researcher.email, "canDownload": researcher.role == .downloader,
                "count": sessions.count, "sessions": sessions.map(Self.row),
                "downloadQuery": query.isEmpty ? "" : "?" + query,
                "tumQuery": (query.isEmpty ? "?" : "?" + query + "&") + "format=tum",
                "site": filter.site ?? "", "from": filter.from ?? "", "to": filter.to ?? "",
                "cvaiMin": filter.cvaiMin.map { String($0) } ?? "", "cvaiMax": filter.cvaiMax.map { String($0) } ?? "",
                "ratingMin": filter.ratingMin.map { String($0) } ?? "", "ratingMax": filter.ratingMax.map { String($0) } ?? "",
                "measuredYes": filter.measured == true, "measuredNo": filter.measured == false, "measuredAny": filter.measured == nil,
            ], request: request, secure: server.behindTLS)
        }
        router.get("/sessions/:id") { request, context -> Response in
            guard let researcher = try await server.pageResearcher(request, context) else { return Self.toLogin }
            let session = try await server.visibleSession(context.parameters.get("id") ?? "", for: .researcher(researcher))
            server.trail.later(AuditEntry(
                actor: Principal.researcher(researcher).auditName, action: "view", sessionID: session.id, address: server.address(request, context)))
            let names = Set(session.files.map(\.name))
            let direction = server.meshViewDirection(session)
            return server.pages.render("session", Self.row(session).merging([
                "hasViewDirection": direction != nil, "viewFrom": direction.map { MeshViewDirection.attribute($0.toCamera) } ?? "",
                "viewUp": direction.map { MeshViewDirection.attribute($0.up) } ?? "",
                "email": researcher.email, "canDownload": researcher.role == .downloader,
                "files": session.files.map { ["name": $0.name, "size": Self.size($0.size), "sha256": researcher.role == .downloader ? $0.sha256 : ""] },
                "hasReport": names.contains("report.pdf"), "hasHTMLReport": names.contains("report.html"),
                // The 3D view loads the whole mesh: only for accounts that may download.
                "hasMesh": names.contains(ScanSession.meshFileName) && researcher.role == .downloader, "hasThree": server.threeAvailable,
                "hasAsymmetry": names.contains(ScanSession.asymmetryFileName),
                "hasScan": names.contains(ScanSession.scanFileName),
            ]) { _, new in new }, request: request, secure: server.behindTLS)
        }
        router.get("/static/style.css") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/css; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: PageTemplates.css)))
        }
        router.get("/static/viewer.js") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/javascript; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: PageTemplates.viewer)))
        }
        // three.js from Debian's libjs-three: only these three files, nothing else of the disk.
        let threeFiles = ["three.min.js": "build/three.min.js", "PLYLoader.js": "examples/js/loaders/PLYLoader.js", "OrbitControls.js": "examples/js/controls/OrbitControls.js"]
        router.get("/static/three/:file") { _, context -> Response in
            guard let relative = threeFiles[context.parameters.get("file") ?? ""] else { throw APIError.notFound }
            let path = server.threeDirectory + "/" + relative
            guard FileManager.default.fileExists(atPath: path) else {
                throw APIError(.notFound, "three.js is not installed on the server; install Debian's libjs-three")
            }
            let body = try await FileIO().loadFile(path: path, context: context)
            return Response(status: .ok, headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "max-age=86400"], body: body)
        }
    }

    var threeAvailable: Bool { FileManager.default.fileExists(atPath: threeDirectory + "/build/three.min.js") }

    /// The first view of the mesh, from the landmarks in the session's `measurement.json`.
    func meshViewDirection(_ session: SessionSummary) -> MeshViewDirection? {
        guard let file = session.files.first(where: { $0.name == MeasurementRecord.fileName }), file.size < 1 << 20,
            let url = blobs.blobURL(file.sha256), let data = try? Data(contentsOf: url)
        else { return nil }
        return MeshViewDirection(measurement: data)
    }

    static var toLogin: Response { Response(status: .seeOther, headers: [.location: "/login"]) }

    /// The signed-in researcher of a page request (cookie or HTTP Basic), nil to send to sign-in.
    func pageResearcher(_ request: Request, _ context: ServiceRequestContext) async throws -> Researcher? {
        guard request.headers[.authorization] != nil || Self.cookie(Self.cookieName, in: request) != nil else { return nil }
        do {
            guard case .researcher(let researcher) = try await authenticate(request, context) else { return nil }
            return researcher
        } catch let error as APIError where error.status == .unauthorized {
            return nil
        }
    }

    static func row(_ session: SessionSummary) -> [String: Any] {
        func format(_ value: Double?, _ digits: Int) -> String { value.map { String(format: "%.\(digits)f", $0) } ?? "–" }
        return [
            "id": session.id, "name": session.name, "site": session.site, "device": session.device,
            "recordedAt": recorded(session.recordedAt), "uploadedAt": uploaded(session.uploadedAt),
            "measured": session.measured, "cvai": format(session.cvai, 1), "ci": format(session.ci, 1),
            "circumference": format(session.circumferenceMM, 0), "rating": session.rating.map { String($0) } ?? "–",
            "processing": session.processing, "fileCount": session.files.count,
        ]
    }

    /// `2026-04-27T00-00-02` (a research session name's date) as `week of 2026-04-27, scan 2`.
    static func recorded(_ text: String) -> String {
        guard ResearchCalendar.isResearchTimestamp(text), let sequence = ResearchCalendar.sequence(of: text) else { return text }
        return "week of \(text.prefix(10)), scan \(sequence)"
    }

    /// An ISO 8601 time as its day, `2026-04-27`.
    static func uploaded(_ text: String) -> String {
        String(text.prefix(10))
    }

    static func size(_ bytes: Int64) -> String {
        bytes >= 1 << 20 ? String(format: "%.1f MB", Double(bytes) / 1_048_576) : String(format: "%.1f kB", Double(bytes) / 1024)
    }

    /// `application/x-www-form-urlencoded` fields.
    static func form(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { continue }
            func decode(_ s: Substring) -> String { s.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "" }
            fields[decode(parts[0])] = decode(parts[1])
        }
        return fields
    }
}
