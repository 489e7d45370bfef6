import Foundation
import HTTPTypes
import HeadScanTesting
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import Upload

@testable import HeadScanServer

/// The smaller defences: concurrent completes, cookies and headers behind TLS, forms from other
/// sites, escaping per Unicode scalar, owner-only files, and addresses only trusted proxies set.
@Suite struct HardeningTests {
    @Test(arguments: Backend.available)
    func twoCompletesAtOnceBothSucceedWithOneSession(_ backend: Backend) async throws {
        let harness = try await Harness.make(backend)
        defer { Task { await harness.close() } }
        let (_, token) = try await harness.device("phone-a")
        let fixture = try SessionFixture(scanBytes: 200_000)
        defer { fixture.remove() }
        let package = try SessionPackage(folder: fixture.folder, pseudonymiser: testPseudonymiser)
        try await harness.app().test(.router) { client in
            let open = try await rawUpload(client, token: token, package: package, chunkSize: 8192, completing: false)
            let answers = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                for _ in 0..<2 {
                    group.addTask { try await client.execute(uri: "/api/uploads/\(open.uploadID)/complete", method: .post, headers: bearer(token)) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.map(\.status) == [.ok, .ok], "\(answers.map { String(buffer: $0.body) })")
            let ids = Set(try answers.map { try decode(UploadStatus.self, $0).sessionID })
            #expect(ids.count == 1 && ids.first! != nil)
        }
        #expect(try await harness.store.tableCounts()["sessions"] == 1)
    }

    @Test func behindTLSCookiesAreSecureAndBrowsersKeepToHTTPS() async throws {
        let made = try await Harness.make(.sqlite)
        var server = made.server
        server.behindTLS = true
        let harness = Harness(server: server, data: made.data, schema: made.schema)
        defer { Task { await harness.close() } }
        let password = try await harness.researcher("r@example.org")
        try await harness.app().test(.router) { client in
            let page = try await client.execute(uri: "/login", method: .get)
            #expect(page.headers[.strictTransportSecurity]?.hasPrefix("max-age=") == true)
            #expect(page.headers[.setCookie]?.contains("Secure") == true)
            // Under "no-referrer" Chromium sends `Origin: null` with the page's own form, which is refused.
            #expect(page.headers[.referrerPolicyHeader] == "same-origin")
            let form = try await FormSession.open(client)
            let body = "email=r%40example.org&password=\(password.replacingOccurrences(of: " ", with: "+"))&csrf=\(form.token)"
            let login = try await client.execute(uri: "/login", method: .post, headers: form.headers, body: ByteBuffer(string: body))
            #expect(login.headers[.setCookie]?.contains("; Secure") == true)
            // A form sent from another site is refused even with a valid token.
            var foreign = form.headers
            foreign[.origin] = "https://evil.example"
            let forged = try await client.execute(uri: "/login", method: .post, headers: foreign, body: ByteBuffer(string: body))
            #expect(forged.status == .forbidden && forged.headers[.setCookie] == nil)
        }
    }

    @Test func aQuoteWithACombiningAccentIsEscaped() async throws {
        let harness = try await Harness.make(.sqlite)
        defer { Task { await harness.close() } }
        let password = try await harness.researcher("r@example.org")
        try await harness.app().test(.router) { client in
            let page = try await client.execute(
                uri: "/sessions?site=%22%CC%81%3E%3Cscript%3E", method: .get, headers: basic("r@example.org", password))
            let html = String(buffer: page.body)
            #expect(!html.contains("<script>"))
            #expect(html.contains("&quot;\u{301}&gt;&lt;script&gt;"))
            #expect(!html.unicodeScalars.elementsEqual("\"\u{301}".unicodeScalars) && !html.contains("\"\u{301}"))
        }
    }

    @Test func theDataFolderIsTheServiceUsersAlone() async throws {
        let harness = try await Harness.make(.sqlite)
        defer { Task { await harness.close() } }
        let (_, token) = try await harness.device("phone-a")
        let fixture = try SessionFixture()
        defer { fixture.remove() }
        try await harness.app().test(.router) { client in
            try await rawUpload(client, token: token, package: try SessionPackage(folder: fixture.folder, pseudonymiser: testPseudonymiser))
            let open = try SessionFixture(patientID: 77)
            defer { open.remove() }
            try await rawUpload(
                client, token: token, package: try SessionPackage(folder: open.folder, pseudonymiser: testPseudonymiser), completing: false)
        }
        let walker = try #require(FileManager.default.enumerator(at: harness.data, includingPropertiesForKeys: nil))
        var checked = 0
        for case let url as URL in walker where !url.lastPathComponent.hasPrefix("headscan.sqlite") {
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
            let isFolder = attributes[.type] as? FileAttributeType == .typeDirectory
            #expect(mode & 0o077 == 0, "\(url.path) has mode \(String(mode, radix: 8))")
            if !isFolder { checked += 1 }
        }
        #expect(checked > 5)
    }

    @Test func anUntrustedForwardedAddressIsIgnored() async throws {
        let harness = try await Harness.make(.sqlite)
        defer { Task { await harness.close() } }
        try await harness.app().test(.router) { client in
            _ = try await client.execute(uri: "/api/sessions", method: .get, headers: [.xForwardedFor: "203.0.113.9"])
        }
        let row = try #require(try await harness.store.auditLog(limit: 1).first)
        #expect(row.action == "refused" && row.address != "203.0.113.9")
    }
}
