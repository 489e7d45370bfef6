import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import HeadScanServer

/// The OpenAPI document is written by hand: these tests hold it to the routes the router
/// really has, both ways, so that neither can change without the other.
@Suite struct OpenAPITests {
    /// Routes that are no part of the JSON API: the browsers' pages and their files, the health
    /// check and the document itself. Listed in full, so a new route is either documented or
    /// added here on purpose.
    static let undocumented: Set<String> = [
        "GET /", "GET /healthz", "GET /openapi.yaml", "GET /login", "POST /login", "POST /logout", "GET /sessions", "GET /sessions/{id}",
        "GET /static/style.css", "GET /static/viewer.js", "GET /static/three/{file}",
    ]

    @Test(arguments: Backend.available)
    func everyRouteIsDocumentedAndEveryDocumentedOperationIsRouted(_ backend: Backend) async throws {
        let harness = try await Harness.make(backend)
        defer { Task { await harness.close() } }
        let routes = Set(harness.server.router().routes.map { "\($0.method) \($0.path)" })
        let documented = Self.operations(in: try await Self.servedDocument(harness))
        #expect(documented.count >= 9, "the document's paths were not found: \(documented)")
        #expect(
            routes.subtracting(Self.undocumented).subtracting(documented).isEmpty,
            "routed but not documented: \(routes.subtracting(Self.undocumented).subtracting(documented).sorted())")
        #expect(documented.subtracting(routes).isEmpty, "documented but not routed: \(documented.subtracting(routes).sorted())")
        #expect(
            Self.undocumented.subtracting(routes).isEmpty, "listed as undocumented but not routed: \(Self.undocumented.subtracting(routes).sorted())")
        #expect(Self.undocumented.isDisjoint(with: documented))
    }

    /// Through the whole application, without credentials: each documented operation reaches a
    /// route (which refuses), none is unknown to the router.
    @Test(arguments: Backend.available)
    func everyDocumentedOperationAnswers(_ backend: Backend) async throws {
        let harness = try await Harness.make(backend)
        defer { Task { await harness.close() } }
        let operations = Self.operations(in: try await Self.servedDocument(harness))
        try await harness.app().test(.router) { client in
            for operation in operations.sorted() {
                let parts = operation.split(separator: " ").map(String.init)
                let method = try #require(HTTPRequest.Method(parts[0]))
                let response = try await client.execute(uri: Self.example(parts[1]), method: method)
                #expect(![.notFound, .methodNotAllowed].contains(response.status), "\(operation) answers \(response.status)")
                #expect(response.status == .unauthorized, "\(operation) without credentials answers \(response.status)")
            }
        }
    }

    static func servedDocument(_ harness: Harness) async throws -> String {
        try await harness.app().test(.router) { client in
            let response = try await client.execute(uri: "/openapi.yaml", method: .get)
            #expect(response.status == .ok)
            return String(buffer: response.body)
        }
    }

    /// `METHOD /path/{parameter}` for every operation under the document's `paths:` (a path
    /// indented by two spaces, its methods by four).
    static func operations(in yaml: String) -> Set<String> {
        let methods: Set<String> = ["get", "put", "post", "delete", "patch", "head", "options"]
        var operations: Set<String> = []
        var inPaths = false
        var path: String?
        for line in yaml.split(separator: "\n") {
            guard line.hasPrefix(" ") else {
                inPaths = line == "paths:"
                continue
            }
            let key = line.trimmingCharacters(in: .whitespaces)
            guard inPaths, key.hasSuffix(":") else { continue }
            let name = String(key.dropLast())
            switch line.prefix(while: { $0 == " " }).count {
            case 2: path = name
            case 4 where methods.contains(name): path.map { _ = operations.insert("\(name.uppercased()) \($0)") }
            default: break
            }
        }
        return operations
    }

    /// A request path for a documented one: each `{parameter}` filled with a plausible value.
    static func example(_ path: String) -> String {
        let values = ["id": UUID().uuidString.lowercased(), "name": "scan.hscan", "index": "0"]
        return path.split(separator: "/", omittingEmptySubsequences: false).map { part in
            guard part.hasPrefix("{"), part.hasSuffix("}") else { return String(part) }
            return values[String(part.dropFirst().dropLast())] ?? "x"
        }.joined(separator: "/")
    }
}
