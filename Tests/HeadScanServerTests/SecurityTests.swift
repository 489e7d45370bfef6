import Foundation
import HTTPTypes
import HeadScanServer
import HeadScanTesting
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import Upload

/// Two hundred malformed or unauthorised requests: every one gets a 4xx answer and nothing
/// changes on disk or in the database.
@Suite struct SecurityTests {
    struct Attempt: Sendable {
        var label: String
        var uri: String
        var method: HTTPRequest.Method
        var headers: HTTPFields
        var body: ByteBuffer?
    }

    @Test(arguments: Backend.available)
    func malformedRequestsChangeNothing(_ backend: Backend) async throws {
        let harness = try await Harness.make(backend)
        defer { Task { await harness.close() } }
        let (_, token) = try await harness.device("phone-a")
        let (_, otherToken) = try await harness.device("phone-b")
        let viewerPassword = try await harness.researcher("viewer@example.org", role: .viewer)
        let fixture = try SessionFixture(scanBytes: 5000)
        defer { fixture.remove() }
        let package = try SessionPackage(folder: fixture.folder, pseudonymiser: testPseudonymiser)
        let second = try SessionFixture(patientID: 99, scanBytes: 5000)
        defer { second.remove() }
        let openPackage = try SessionPackage(folder: second.folder, pseudonymiser: testPseudonymiser)

        try await harness.app().test(.router) { client in
            // One finished session and one open upload with its first chunk, as a real server has.
            let done = try await rawUpload(client, token: token, package: package)
            let sessionID = try #require(done.sessionID)
            let create = CreateUploadRequest(sessionName: openPackage.sessionName, chunkSize: 1024, files: openPackage.manifest)
            let open = try decode(
                UploadStatus.self, try await client.execute(uri: "/api/uploads", method: .post, headers: bearer(token), body: try json(create)))
            let scan = try #require(openPackage.items.first { $0.manifest.name == "scan.hscan" })
            let chunk0 = try SessionPackage.read(scan, offset: 0, length: 1024)
            let chunk1 = try SessionPackage.read(scan, offset: 1024, length: 1024)
            var first = bearer(token)
            first[.chunkChecksum] = Digest.sha256(chunk0)
            #expect(
                try await client.execute(
                    uri: "/api/uploads/\(open.uploadID)/files/scan.hscan/chunks/0", method: .put, headers: first, body: ByteBuffer(bytes: chunk0)
                ).status == .ok)

            let before = try await harness.state()
            var attempts: [Attempt] = []
            func add(_ label: String, _ uri: String, _ method: HTTPRequest.Method, _ headers: HTTPFields, _ body: ByteBuffer? = nil) {
                attempts.append(Attempt(label: label, uri: uri, method: method, headers: headers, body: body))
            }
            func chunkHeaders(_ digest: String?, token: String = token) -> HTTPFields {
                var headers = bearer(token)
                if let digest { headers[.chunkChecksum] = digest }
                return headers
            }
            let chunkURI = "/api/uploads/\(open.uploadID)/files/scan.hscan/chunks"

            // Bad credentials on every route.
            let badAuth: [HTTPFields] = [
                [:], bearer(""), bearer("x"), bearer(String(repeating: "a", count: 43)), bearer(token + "x"), bearer(String(token.dropLast())),
                bearer(String(repeating: "z", count: 500)), [.authorization: "Token \(token)"], [.authorization: "Basic"],
                [.authorization: "Basic !!!"], [.authorization: "Basic " + Data("no-colon".utf8).base64EncodedString()],
                basic("viewer@example.org", "wrong password"), basic("nobody@example.org", viewerPassword), basic("", ""),
                [.authorization: "bearer \(token)"],
            ]
            let routes: [(String, HTTPRequest.Method)] = [
                ("/api/sessions", .get), ("/api/sessions/\(sessionID)", .get), ("/api/sessions/\(sessionID)/files/scan.hscan", .get),
                ("/api/uploads", .post), ("\(chunkURI)/1", .put), ("/api/uploads/\(open.uploadID)/complete", .post),
                ("/api/download", .get), ("/api/sessions/\(sessionID)/download", .get),
            ]
            for (route, method) in routes {
                for (index, headers) in badAuth.enumerated() {
                    var fields = headers
                    if route.contains("chunks") { fields[.chunkChecksum] = Digest.sha256(chunk1) }
                    let body: ByteBuffer? = route.contains("chunks") ? ByteBuffer(bytes: chunk1) : (method == .post ? try json(create) : nil)
                    add("auth \(index) \(route)", route, method, fields, body)
                }
            }

            // Malformed announcements.
            func announce(_ label: String, _ request: CreateUploadRequest) throws {
                add(label, "/api/uploads", .post, bearer(token), try json(request))
            }
            let good = ManifestFile(name: "x.bin", size: 10, sha256: String(repeating: "a", count: 64))
            let consent = package.manifest.first { $0.name == "consent.json" }!
            let trickyNames = [
                "../x", "..", ".", "a/b", "/etc/passwd", "a\\b", ".hidden", "..%2Fx", "%2e%2e", "x\u{0}y", "", String(repeating: "a", count: 101),
                "-rf", "é", "a b", "..\\..\\x", "x/../../y", "~root", "a:b", "CON/x",
            ]
            for name in trickyNames {
                try announce(
                    "file name \(name)",
                    CreateUploadRequest(
                        sessionName: "5_2026-05-01T10-30-00_Scan", chunkSize: 1024,
                        files: [consent, ManifestFile(name: name, size: 10, sha256: good.sha256)]))
            }
            for sessionName in [
                "../5_2026-05-01T10-30-00_Scan", "5_2026-05-01T10-30-00", "x", "", "5/6_2026-05-01T10-30-00_Scan", "5_2026-13-01T10-30-00_Scan",
                ".5_2026-05-01T10-30-00_Scan", "5_2026-05-01T10-30-00_Scan/..", String(repeating: "9", count: 200) + "_2026-05-01T10-30-00_Scan",
                "a b_2026-05-01T10-30-00_Scan",
            ] {
                try announce("session name \(sessionName)", CreateUploadRequest(sessionName: sessionName, chunkSize: 1024, files: [consent, good]))
            }
            for size in [0, 1, 1023, UploadProtocol.maximumChunkSize + 1, -5] {
                try announce(
                    "chunk size \(size)", CreateUploadRequest(sessionName: "5_2026-05-01T10-30-00_Scan", chunkSize: size, files: [consent, good]))
            }
            for digest in [
                "", "abc", String(repeating: "A", count: 64), String(repeating: "g", count: 64), String(repeating: "a", count: 63),
                String(repeating: "a", count: 65),
            ] {
                try announce(
                    "digest \(digest)",
                    CreateUploadRequest(
                        sessionName: "5_2026-05-01T10-30-00_Scan", chunkSize: 1024,
                        files: [consent, ManifestFile(name: "y.bin", size: 10, sha256: digest)]))
            }
            try announce(
                "negative size",
                CreateUploadRequest(
                    sessionName: "5_2026-05-01T10-30-00_Scan", chunkSize: 1024,
                    files: [consent, ManifestFile(name: "y.bin", size: -1, sha256: good.sha256)]))
            try announce(
                "huge size",
                CreateUploadRequest(
                    sessionName: "5_2026-05-01T10-30-00_Scan", chunkSize: 1024,
                    files: [consent, ManifestFile(name: "y.bin", size: 1 << 40, sha256: good.sha256)]))
            try announce("no consent", CreateUploadRequest(sessionName: "5_2026-05-01T10-30-00_Scan", chunkSize: 1024, files: [good]))
            try announce("no files", CreateUploadRequest(sessionName: "5_2026-05-01T10-30-00_Scan", chunkSize: 1024, files: []))
            try announce("twice", CreateUploadRequest(sessionName: "5_2026-05-01T10-30-00_Scan", chunkSize: 1024, files: [consent, good, good]))
            try announce(
                "too many",
                CreateUploadRequest(
                    sessionName: "5_2026-05-01T10-30-00_Scan", chunkSize: 1024,
                    files: [consent] + (0..<70).map { ManifestFile(name: "f\($0)", size: 1, sha256: good.sha256) }))
            try announce(
                "finished session with other files", CreateUploadRequest(sessionName: package.sessionName, chunkSize: 1024, files: [consent, good]))
            for body in ["", "{", "[]", "null", "{\"sessionName\": 5}", String(repeating: " ", count: 300_000) + "{}"] {
                add("json \(body.prefix(20))", "/api/uploads", .post, bearer(token), ByteBuffer(string: body))
            }

            // Malformed chunks against the open upload.
            let sum1 = Digest.sha256(chunk1)
            add("out of order", "\(chunkURI)/2", .put, chunkHeaders(Digest.sha256(chunk1)), ByteBuffer(bytes: chunk1))
            add("far out of order", "\(chunkURI)/4", .put, chunkHeaders(sum1), ByteBuffer(bytes: chunk1))
            for index in ["-1", "5", "99", "01", "1.0", "x", "1e0", "9999999999999999999999"] {
                add("index \(index)", "\(chunkURI)/\(index)", .put, chunkHeaders(sum1), ByteBuffer(bytes: chunk1))
            }
            add("wrong checksum", "\(chunkURI)/1", .put, chunkHeaders(Digest.sha256(chunk0)), ByteBuffer(bytes: chunk1))
            add("missing checksum", "\(chunkURI)/1", .put, chunkHeaders(nil), ByteBuffer(bytes: chunk1))
            add("upper-case checksum", "\(chunkURI)/1", .put, chunkHeaders(sum1.uppercased()), ByteBuffer(bytes: chunk1))
            add("short checksum", "\(chunkURI)/1", .put, chunkHeaders(String(sum1.prefix(10))), ByteBuffer(bytes: chunk1))
            add("short body", "\(chunkURI)/1", .put, chunkHeaders(Digest.sha256(chunk1.prefix(1000))), ByteBuffer(bytes: chunk1.prefix(1000)))
            add("long body", "\(chunkURI)/1", .put, chunkHeaders(Digest.sha256(chunk1 + chunk0)), ByteBuffer(bytes: chunk1 + chunk0))
            add("empty body", "\(chunkURI)/1", .put, chunkHeaders(Digest.sha256(Data())), nil)
            let oversized = Data(repeating: 1, count: UploadProtocol.maximumChunkSize + 1)
            add("oversized body", "\(chunkURI)/1", .put, chunkHeaders(Digest.sha256(oversized)), ByteBuffer(bytes: oversized))
            add("other bytes for chunk 0", "\(chunkURI)/0", .put, chunkHeaders(sum1), ByteBuffer(bytes: chunk1))
            for name in [
                "..%2Fscan.hscan", "%2e%2e", "nope.bin", "scan.hscan%00", "SCAN.HSCAN", "scan.hscan.", "patient.json%2F..%2F..%2Fheadscan.sqlite",
            ] {
                add("chunk file \(name)", "/api/uploads/\(open.uploadID)/files/\(name)/chunks/1", .put, chunkHeaders(sum1), ByteBuffer(bytes: chunk1))
            }
            add("other device's upload", "\(chunkURI)/1", .put, chunkHeaders(sum1, token: otherToken), ByteBuffer(bytes: chunk1))
            add("other device completes", "/api/uploads/\(open.uploadID)/complete", .post, bearer(otherToken))
            add("other device status", "/api/uploads/\(open.uploadID)", .get, bearer(otherToken))
            add("complete too early", "/api/uploads/\(open.uploadID)/complete", .post, bearer(token))
            add(
                "unknown upload", "/api/uploads/\(UUID().uuidString.lowercased())/files/scan.hscan/chunks/0", .put,
                chunkHeaders(Digest.sha256(chunk0)), ByteBuffer(bytes: chunk0))
            add(
                "upload id trick", "/api/uploads/..%2F..%2Fblobs/files/scan.hscan/chunks/0", .put, chunkHeaders(Digest.sha256(chunk0)),
                ByteBuffer(bytes: chunk0))
            add(
                "chunk to finished upload", "/api/uploads/\(done.uploadID)/files/scan.hscan/chunks/0", .put, chunkHeaders(Digest.sha256(chunk0)),
                ByteBuffer(bytes: chunk0))
            add("researcher uploads", "/api/uploads", .post, basic("viewer@example.org", viewerPassword), try json(create))

            // Reading: path tricks, other device, viewer role, bad filters.
            for name in ["..%2F..%2Fheadscan.sqlite", "%2e%2e%2fpatient.json", "nope.bin", "scan.hscan%2F", ".consent.json", "CONSENT.JSON"] {
                add("read \(name)", "/api/sessions/\(sessionID)/files/\(name)", .get, bearer(token))
            }
            add("other device reads", "/api/sessions/\(sessionID)/files/scan.hscan", .get, bearer(otherToken))
            add("other device session", "/api/sessions/\(sessionID)", .get, bearer(otherToken))
            add("other device mesh", "/api/sessions/\(sessionID)/mesh", .get, bearer(otherToken))
            add("viewer downloads", "/api/sessions/\(sessionID)/files/scan.hscan", .get, basic("viewer@example.org", viewerPassword))
            add("viewer zip", "/api/sessions/\(sessionID)/download", .get, basic("viewer@example.org", viewerPassword))
            add("unknown session", "/api/sessions/\(UUID().uuidString.lowercased())/files/scan.hscan", .get, bearer(token))
            add("session id trick", "/api/sessions/..%2F..%2Fblobs/files/scan.hscan", .get, bearer(token))
            for query in [
                "cvaiMin=abc", "cvaiMax=nan", "from=2026-13", "to=yesterday", "limit=0", "limit=100000", "measured=maybe", "ratingMin=1.5",
                "site=" + String(repeating: "s", count: 200),
            ] {
                add("filter \(query)", "/api/sessions?\(query)", .get, basic("viewer@example.org", viewerPassword))
            }
            add("three.js trick", "/static/three/..%2F..%2F..%2Fetc%2Fpasswd", .get, [:])
            add("three.js other file", "/static/three/package.json", .get, [:])
            add(
                "oversized login", "/login", .post, [.contentType: "application/x-www-form-urlencoded"],
                ByteBuffer(string: String(repeating: "a", count: 20_000)))

            // Fill up to 200 with more invalid tokens on the listing.
            var filler = 0
            while attempts.count < 200 {
                filler += 1
                add("random token \(filler)", "/api/sessions", .get, bearer("hsd_" + UUID().uuidString + UUID().uuidString))
            }

            var failures: [String] = []
            for attempt in attempts {
                let response = try await client.execute(uri: attempt.uri, method: attempt.method, headers: attempt.headers, body: attempt.body)
                if !(400..<500).contains(Int(response.status.code)) {
                    failures.append("\(attempt.label): \(response.status.code) \(String(buffer: response.body).prefix(200))")
                }
            }
            #expect(attempts.count >= 200)
            #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
            let after = try await harness.state()
            #expect(after.0 == before.0, "files changed")
            #expect(after.1 == before.1, "database rows changed")
        }
    }
}
