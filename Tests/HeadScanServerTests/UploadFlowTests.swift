import Foundation
import HTTPTypes
import HeadScanServer
import HeadScanTesting
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import Upload
import ZIPFoundation

/// The time limit guards against a hang; it is no speed target. The whole suite on two busy
/// cores has kept these tests waiting past two minutes.
@Suite(.timeLimit(.minutes(6))) struct UploadFlowTests {
    @Test(arguments: Backend.available)
    func clientUploadsAndTheServerVerifies(_ backend: Backend) async throws {
        let harness = try await Harness.make(backend)
        defer { Task { await harness.close() } }
        let (_, token) = try await harness.device("phone-1")
        let fixture = try SessionFixture(
            scanBytes: 300_000, extra: ["measurement.json": SessionFixture.measurement(cvai: 7.5), "rating.json": SessionFixture.rating(4)])
        defer { fixture.remove() }
        let package = try SessionPackage(folder: fixture.folder, pseudonymiser: testPseudonymiser)

        try await harness.app().test(.live) { client in
            let url = URL(string: "http://127.0.0.1:\(client.port!)")!
            let uploader = UploadClient(server: url, token: token, chunkSize: 64 * 1024, attempts: 2)
            let id = try await uploader.upload(package)
            let before = try await harness.state()
            // Sending the finished session again changes nothing and names the same session.
            #expect(try await uploader.upload(package) == id)
            #expect(try await harness.state() == before)

            // A wrong token is a final answer, given at once (no retries, no stalled challenge).
            let refused = UploadClient(server: url, token: "hsd_not-a-real-token-0000", attempts: 3)
            await #expect(
                throws: UploadError.rejected(
                    status: 401,
                    message: "the device token is not valid (revoked, expired or mistyped); ask the service's administrator for a new one")
            ) {
                try await refused.upload(package)
            }
            let listed = try await uploader.sessions()
            #expect(listed.map(\.id) == [id])
            let session = try #require(listed.first)
            #expect(session.name == package.sessionName)
            #expect(session.measured && session.cvai == 7.5 && session.rating == 4)
            #expect(session.processing == "queued")
            #expect(Set(session.files.map(\.name)) == Set(package.manifest.map(\.name)))
        }
        // Every file reads back as the service's own encoding of what was sent.
        try await harness.app().test(.router) { client in
            let list = try decode(SessionList.self, try await client.execute(uri: "/api/sessions", method: .get, headers: bearer(token)))
            let id = try #require(list.sessions.first?.id)
            for item in package.items {
                let response = try await client.execute(uri: "/api/sessions/\(id)/files/\(item.manifest.name)", method: .get, headers: bearer(token))
                #expect(response.status == .ok)
                let bytes = Data(response.body.readableBytesView)
                #expect(bytes == (try kept(item)), "\(item.manifest.name)")
            }
        }
        #expect(try await harness.store.auditLog(limit: 1000).filter { $0.action == "download" }.count == package.items.count)
    }

    @Test(arguments: Backend.available)
    func resumesAfterAnInterruption(_ backend: Backend) async throws {
        let harness = try await Harness.make(backend)
        defer { Task { await harness.close() } }
        let (_, token) = try await harness.device("phone-1")
        let fixture = try SessionFixture(scanBytes: 10_000)
        defer { fixture.remove() }
        let package = try SessionPackage(folder: fixture.folder, pseudonymiser: testPseudonymiser)
        try await harness.app().test(.router) { client in
            let create = CreateUploadRequest(sessionName: package.sessionName, chunkSize: 1024, files: package.manifest)
            let first = try decode(
                UploadStatus.self, try await client.execute(uri: "/api/uploads", method: .post, headers: bearer(token), body: try json(create)))
            let scan = try #require(package.items.first { $0.manifest.name == "scan.hscan" })
            for index in 0..<4 {
                let bytes = try SessionPackage.read(scan, offset: Int64(index * 1024), length: 1024)
                var headers = bearer(token)
                headers[HTTPField.Name(UploadProtocol.chunkChecksumHeader)!] = Digest.sha256(bytes)
                _ = try await client.execute(
                    uri: "/api/uploads/\(first.uploadID)/files/scan.hscan/chunks/\(index)", method: .put, headers: headers,
                    body: ByteBuffer(bytes: bytes))
            }
            // Nothing is visible before the upload completes.
            let early = try decode(SessionList.self, try await client.execute(uri: "/api/sessions", method: .get, headers: bearer(token)))
            #expect(early.sessions.isEmpty)
            let again = try decode(
                UploadStatus.self, try await client.execute(uri: "/api/uploads", method: .post, headers: bearer(token), body: try json(create)))
            #expect(again.uploadID == first.uploadID && again.received["scan.hscan"] == [0, 1, 2, 3])
            let done = try await rawUpload(client, token: token, package: package)
            #expect(done.state == .complete && done.sessionID != nil)
        }
    }

    @Test(arguments: Backend.available)
    func refusesSessionsWithoutResearchConsent(_ backend: Backend) async throws {
        let harness = try await Harness.make(backend)
        defer { Task { await harness.close() } }
        let (_, token) = try await harness.device("phone-1")
        // A client that ignores the rule: consent.json says no.
        let fixture = try SessionFixture()
        defer { fixture.remove() }
        var changed = try SessionPackage(folder: fixture.folder, pseudonymiser: testPseudonymiser)
        let refusal = Data(#"{"version": 1, "researchUse": false, "decidedAt": "2026-05-01T10:00:00Z", "recordedBy": "x"}"#.utf8)
        let index = try #require(changed.items.firstIndex { $0.manifest.name == "consent.json" })
        changed.items[index] = .init(
            manifest: ManifestFile(name: "consent.json", size: Int64(refusal.count), sha256: Digest.sha256(refusal)), source: .data(refusal))
        let package = changed
        try await harness.app().test(.router) { client in
            let create = CreateUploadRequest(sessionName: package.sessionName, chunkSize: 1024, files: package.manifest)
            let status = try decode(
                UploadStatus.self, try await client.execute(uri: "/api/uploads", method: .post, headers: bearer(token), body: try json(create)))
            for item in package.items {
                for chunk in 0..<item.manifest.chunkCount(chunkSize: 1024) {
                    let bytes = try SessionPackage.read(item, offset: Int64(chunk * 1024), length: item.manifest.chunkLength(chunk, chunkSize: 1024))
                    var headers = bearer(token)
                    headers[HTTPField.Name(UploadProtocol.chunkChecksumHeader)!] = Digest.sha256(bytes)
                    _ = try await client.execute(
                        uri: "/api/uploads/\(status.uploadID)/files/\(item.manifest.name)/chunks/\(chunk)", method: .put, headers: headers,
                        body: ByteBuffer(bytes: bytes))
                }
            }
            let done = try await client.execute(uri: "/api/uploads/\(status.uploadID)/complete", method: .post, headers: bearer(token))
            #expect(done.status == .unprocessableContent)
            #expect(String(buffer: done.body).contains("did not agree"))
            let list = try decode(SessionList.self, try await client.execute(uri: "/api/sessions", method: .get, headers: bearer(token)))
            #expect(list.sessions.isEmpty)
        }
        #expect(try await harness.store.tableCounts()["sessions"] == 0)
    }

    @Test(arguments: Backend.available)
    func devicesSeeOnlyTheirOwnAndViewersCannotDownload(_ backend: Backend) async throws {
        let harness = try await Harness.make(backend)
        defer { Task { await harness.close() } }
        let (_, tokenA) = try await harness.device("phone-a", site: "clinic-a")
        let (_, tokenB) = try await harness.device("phone-b", site: "clinic-b")
        let viewerPassword = try await harness.researcher("viewer@example.org", role: .viewer)
        let downloaderPassword = try await harness.researcher("dl@example.org")
        let fixture = try SessionFixture()
        defer { fixture.remove() }
        let package = try SessionPackage(folder: fixture.folder, pseudonymiser: testPseudonymiser)
        try await harness.app().test(.router) { client in
            let status = try await rawUpload(client, token: tokenA, package: package)
            let id = try #require(status.sessionID)
            let listB = try decode(SessionList.self, try await client.execute(uri: "/api/sessions", method: .get, headers: bearer(tokenB)))
            #expect(listB.sessions.isEmpty)
            #expect(try await client.execute(uri: "/api/sessions/\(id)", method: .get, headers: bearer(tokenB)).status == .notFound)
            #expect(try await client.execute(uri: "/api/sessions/\(id)/files/scan.hscan", method: .get, headers: bearer(tokenB)).status == .notFound)
            #expect(try await client.execute(uri: "/api/sessions/\(id)/download", method: .get, headers: bearer(tokenB)).status == .notFound)

            let viewerList = try decode(
                SessionList.self, try await client.execute(uri: "/api/sessions", method: .get, headers: basic("viewer@example.org", viewerPassword)))
            #expect(viewerList.sessions.map(\.id) == [id])
            #expect(
                try await client.execute(
                    uri: "/api/sessions/\(id)/files/scan.hscan", method: .get, headers: basic("viewer@example.org", viewerPassword)
                ).status == .forbidden)
            #expect(
                try await client.execute(uri: "/api/download", method: .get, headers: basic("viewer@example.org", viewerPassword)).status
                    == .forbidden)
            // Every listing, view and refusal is in the audit log, downloads none yet.
            let actions = try await harness.auditActions()
            #expect(!actions.contains("download"))
            #expect(actions.filter { $0 == "list" }.count == 2 && actions.filter { $0 == "refused" }.count == 5, "\(actions)")

            let file = try await client.execute(
                uri: "/api/sessions/\(id)/files/scan.hscan", method: .get, headers: basic("dl@example.org", downloaderPassword))
            #expect(file.status == .ok)
            let log = try await harness.store.auditLog()
            #expect(
                log[0].action == "download" && log[0].actor == "researcher:dl@example.org" && log[0].fileName == "scan.hscan"
                    && log[0].sessionID == id)

            // A whole filtered dataset as zip, the kept bytes.
            let zip = try await client.execute(uri: "/api/download?site=clinic-a", method: .get, headers: basic("dl@example.org", downloaderPassword))
            #expect(zip.status == .ok)
            let archive = try Archive(data: Data(zip.body.readableBytesView), accessMode: .read)
            for item in package.items {
                let entry = try #require(archive["clinic-a/\(package.sessionName)-\(id)/\(item.manifest.name)"])
                var bytes = Data()
                _ = try archive.extract(entry) { bytes.append($0) }
                #expect(bytes == (try kept(item)), "\(item.manifest.name)")
            }
            #expect(archive["sessions.json"] != nil)
            #expect(
                try await client.execute(uri: "/api/download?site=nowhere", method: .get, headers: basic("dl@example.org", downloaderPassword)).status
                    == .notFound)
        }
    }

    @Test(arguments: Backend.available)
    func filtersSelectSessions(_ backend: Backend) async throws {
        let harness = try await Harness.make(backend)
        defer { Task { await harness.close() } }
        let (_, tokenA) = try await harness.device("phone-a", site: "clinic-a")
        let (_, tokenB) = try await harness.device("phone-b", site: "clinic-b")
        let password = try await harness.researcher("r@example.org")
        try await harness.app().test(.router) { client in
            for (patient, token, cvai, rating) in [(1, tokenA, 3.0, 5), (2, tokenA, 9.0, 2), (3, tokenB, 14.0, 4)] {
                let fixture = try SessionFixture(
                    patientID: patient,
                    extra: [
                        "measurement.json": SessionFixture.measurement(cvai: cvai), "rating.json": SessionFixture.rating(rating),
                    ])
                defer { fixture.remove() }
                try await rawUpload(client, token: token, package: try SessionPackage(folder: fixture.folder, pseudonymiser: testPseudonymiser))
            }
            let unmeasured = try SessionFixture(patientID: 4)
            defer { unmeasured.remove() }
            try await rawUpload(client, token: tokenB, package: try SessionPackage(folder: unmeasured.folder, pseudonymiser: testPseudonymiser))

            func count(_ query: String) async throws -> Int {
                let response = try await client.execute(uri: "/api/sessions?\(query)", method: .get, headers: basic("r@example.org", password))
                #expect(response.status == .ok, "\(query)")
                return try decode(SessionList.self, response).sessions.count
            }
            #expect(try await count("") == 4)
            #expect(try await count("site=clinic-a") == 2)
            #expect(try await count("measured=no") == 1)
            #expect(try await count("measured=yes") == 3)
            #expect(try await count("cvaiMin=5&cvaiMax=10") == 1)
            #expect(try await count("cvaiMin=5") == 2)
            #expect(try await count("ratingMin=4") == 2)
            // Recordings are dated by the Monday of their week.
            #expect(try await count("from=2026-04-27&to=2026-04-27") == 4)
            #expect(try await count("from=2026-04-28") == 0)
            #expect(try await count("to=2026-04-26") == 0)
        }
    }
}
