import Foundation
import Hummingbird
import NIOCore

/// `/static`: the pages' style sheet and scripts, open to anyone (they hold no data).
struct StaticFileController {
    let server: ResearchServer

    /// three.js from Debian's libjs-three: only these three files, nothing else of the disk.
    static let threeFiles = [
        "three.min.js": "build/three.min.js", "PLYLoader.js": "examples/js/loaders/PLYLoader.js",
        "OrbitControls.js": "examples/js/controls/OrbitControls.js",
    ]

    func addRoutes(to group: RouterGroup<ServiceRequestContext>) {
        group.get("style.css") { _, _ in Self.text(PageTemplates.css, type: "text/css; charset=utf-8") }
        group.get("viewer.js") { _, _ in Self.text(PageTemplates.viewer, type: "text/javascript; charset=utf-8") }
        group.get("three/:file", use: three)
    }

    static func text(_ text: String, type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    @Sendable func three(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        guard let relative = Self.threeFiles[context.parameters.get("file") ?? ""] else { throw APIError.notFound }
        let path = server.threeDirectory + "/" + relative
        guard FileManager.default.fileExists(atPath: path) else {
            throw APIError(.notFound, "three.js is not installed on the server; install Debian's libjs-three")
        }
        let body = try await FileIO().loadFile(path: path, context: context)
        return Response(status: .ok, headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "max-age=86400"], body: body)
    }
}
