import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import Upload

@testable import HeadScanServer

/// The databases the tests run against: SQLite always, PostgreSQL when HEADSCAN_TEST_POSTGRES
/// names one.
enum Backend: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite, postgres
    var testDescription: String { rawValue }

    static var available: [Backend] {
        ProcessInfo.processInfo.environment["HEADSCAN_TEST_POSTGRES"].map { !$0.isEmpty } == true ? [.sqlite, .postgres] : [.sqlite]
    }
}

/// A server on a fresh data folder and a fresh database (a schema of its own on PostgreSQL).
struct Harness: Sendable {
    let server: ResearchServer
    let data: URL
    let schema: String?

    static func make(_ backend: Backend) async throws -> Harness {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("headscan-server-\(UUID().uuidString)", isDirectory: true)
        var url: String?
        var schema: String?
        if backend == .postgres, let base = ProcessInfo.processInfo.environment["HEADSCAN_TEST_POSTGRES"] {
            let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            schema = name
            url = base + (base.contains("?") ? "&" : "?") + "schema=\(name)"
        }
        var server = try await ResearchServer.open(data: data.path, databaseURL: url)
        server.logger.logLevel = .error
        return Harness(server: server, data: data, schema: schema)
    }

    func close() async {
        if let schema { _ = try? await server.store.database.query("DROP SCHEMA \(schema) CASCADE", []) }
        await server.store.database.close()
        try? FileManager.default.removeItem(at: data)
    }

    var store: Store { server.store }

    func device(_ name: String, site: String = "clinic-a") async throws -> (Device, String) {
        try await store.devices.add(name: name, site: site)
    }

    func researcher(_ email: String, role: Role = .downloader) async throws -> String {
        let password = "correct horse battery"
        _ = try await store.researchers.add(email: email, password: password, role: role, cost: 4)
        return password
    }

    /// Everything that must not change after refused requests: files and table rows (the
    /// audit log and the sign-in failures record refusals, so they are left out).
    func state() async throws -> ([String: Int64], [String: Int64]) {
        (server.blobs.snapshot(), try await store.tableCounts().filter { $0.key != "audit_log" && $0.key != "sign_in_failures" })
    }

    /// The audit log's actions, oldest first.
    func auditActions() async throws -> [String] {
        await server.flushAudit()
        return try await store.auditLog(limit: 100_000).reversed().map(\.action)
    }

    func app() -> some ApplicationProtocol {
        Application(router: server.router())
    }
}

func bearer(_ token: String) -> HTTPFields { [.authorization: "Bearer \(token)"] }
func basic(_ email: String, _ password: String) -> HTTPFields {
    [.authorization: "Basic " + Data("\(email):\(password)".utf8).base64EncodedString()]
}

func json<T: Encodable>(_ value: T) throws -> ByteBuffer { ByteBuffer(bytes: try JSONEncoder().encode(value)) }
func decode<T: Decodable>(_ type: T.Type, _ response: TestResponse) throws -> T {
    try JSONDecoder().decode(type, from: Data(response.body.readableBytesView))
}

let testPseudonymiser = try! Pseudonymiser(siteKey: Data(repeating: 3, count: 32))

/// Uploads a package through the test client with the raw protocol; returns the final status.
@discardableResult
func rawUpload(
    _ client: some TestClientProtocol, token: String, package: SessionPackage, chunkSize: Int = 1024, completing: Bool = true
) async throws -> UploadStatus {
    let create = CreateUploadRequest(sessionName: package.sessionName, chunkSize: chunkSize, files: package.manifest)
    let status = try decode(
        UploadStatus.self, try await client.execute(uri: "/api/uploads", method: .post, headers: bearer(token), body: try json(create)))
    for item in package.items {
        for index in 0..<item.manifest.chunkCount(chunkSize: chunkSize) where !(status.received[item.manifest.name] ?? []).contains(index) {
            let bytes = try SessionPackage.read(
                item, offset: Int64(index * chunkSize), length: item.manifest.chunkLength(index, chunkSize: chunkSize))
            var headers = bearer(token)
            headers[HTTPField.Name(UploadProtocol.chunkChecksumHeader)!] = Digest.sha256(bytes)
            let response = try await client.execute(
                uri: "/api/uploads/\(status.uploadID)/files/\(item.manifest.name)/chunks/\(index)", method: .put, headers: headers,
                body: ByteBuffer(bytes: bytes))
            #expect(response.status == .ok, "chunk \(index) of \(item.manifest.name): \(String(buffer: response.body))")
        }
    }
    guard completing else { return status }
    let done = try await client.execute(uri: "/api/uploads/\(status.uploadID)/complete", method: .post, headers: bearer(token))
    #expect(done.status == .ok, "\(String(buffer: done.body))")
    return try decode(UploadStatus.self, done)
}

extension HTTPField.Name {
    static let chunkChecksum = Self(UploadProtocol.chunkChecksumHeader)!
}

/// What the service keeps of a file the client sends: its own encoding, as the checks write it.
func kept(_ name: String, _ data: Data) throws -> Data {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kept-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("in"), output = folder.appendingPathComponent("out")
    try data.write(to: input)
    _ = try UploadInspector.inspect(name, at: input, writingTo: output)
    return try Data(contentsOf: output)
}

func kept(_ item: SessionPackage.Item) throws -> Data {
    try kept(item.manifest.name, try SessionPackage.read(item, offset: 0, length: Int(item.manifest.size)))
}
