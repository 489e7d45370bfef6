import Cephalometry
import ChildProcesses
import Foundation
import HTTPTypes
import HeadScanTesting
import Hummingbird
import HummingbirdTesting
import ScanLibrary
import Testing
import Upload

@testable import HeadScanServer

/// The smaller defences: accounts and tokens as the administrator means them, documents bound
/// to their session, digests only for those who may download, a bounded audit of anonymous noise.
@Suite struct AdministrationTests {
    @Test(arguments: Backend.available)
    func aRotatedTokenKeepsItsEnd(_ backend: Backend) async throws {
        let harness = try await Harness.make(backend)
        defer { Task { await harness.close() } }
        let end = Date().addingTimeInterval(30 * 86_400)
        _ = try await harness.store.devices.add(name: "phone-a", site: "clinic-a", expiresAt: end)
        _ = try await harness.store.devices.rotate(name: "phone-a")
        let expiry = try #require(try await harness.store.devices.all().first?.expiresAt)
        #expect(abs(expiry.timeIntervalSince(end)) < 1)
        // An expired token needs a new end to be rotated.
        _ = try await harness.store.devices.add(name: "old-phone", site: "clinic-a", expiresAt: Date().addingTimeInterval(-1))
        await #expect(throws: DatabaseError.self) { try await harness.store.devices.rotate(name: "old-phone") }
        _ = try await harness.store.devices.rotate(name: "old-phone", expiresAt: end)
    }

    @Test(arguments: Backend.available)
    func lookAlikeAddressesAndBlankPasswordsAreRefused(_ backend: Backend) async throws {
        let harness = try await Harness.make(backend)
        defer { Task { await harness.close() } }
        _ = try await harness.store.researchers.add(email: "anna@example.org", password: "correct horse battery", role: .viewer, cost: 4)
        for email in [
            "  anna@example.org", "anna@example.org ", "<script>@x", "anna@example", "an na@example.org", "anna@@example.org", "anna@example.org\n",
        ] {
            await #expect(throws: DatabaseError.self, "\(email)") {
                try await harness.store.researchers.add(email: email, password: "correct horse battery", role: .viewer, cost: 4)
            }
        }
        for password in [String(repeating: " ", count: 10), "aaaaaaaaaa", "abab abab ab"] {
            await #expect(throws: DatabaseError.self, "\(password)") {
                try await harness.store.researchers.add(email: "ben@example.org", password: password, role: .viewer, cost: 4)
            }
        }
        #expect(try await harness.store.researchers.all().map(\.email) == ["anna@example.org"])
    }

    @Test(arguments: Backend.available)
    func viewersSeeNoDigestsOfFilesTheyMayNotDownload(_ backend: Backend) async throws {
        let harness = try await Harness.make(backend)
        defer { Task { await harness.close() } }
        let (_, token) = try await harness.device("phone-a")
        let viewer = try await harness.researcher("viewer@example.org", role: .viewer)
        let downloader = try await harness.researcher("dl@example.org")
        let fixture = try SessionFixture()
        defer { fixture.remove() }
        try await harness.app().test(.router) { client in
            let id = try #require(
                try await rawUpload(client, token: token, package: try SessionPackage(folder: fixture.folder, pseudonymiser: testPseudonymiser))
                    .sessionID)
            for uri in ["/api/sessions", "/api/sessions/\(id)"] {
                let seen = String(buffer: try await client.execute(uri: uri, method: .get, headers: basic("viewer@example.org", viewer)).body)
                let full = String(buffer: try await client.execute(uri: uri, method: .get, headers: basic("dl@example.org", downloader)).body)
                #expect(seen.contains("\"sha256\":\"\"") && !seen.contains(#/"sha256":"[0-9a-f]{64}"/#), "\(uri): \(seen)")
                #expect(full.contains(#/"sha256":"[0-9a-f]{64}"/#), "\(uri)")
            }
        }
    }

    @Test func documentsAreBoundToTheirSession() throws {
        let name = try SessionName(parsing: "1234567890123_2026-04-27T00-00-01_Scan")
        var patient = ResearchPatientRecord(
            pseudonym: 1_234_567_890_124, calliper: CalliperMeasurements(lengthMM: 140, widthMM: 120, diagonalAMM: 150, diagonalBMM: 145),
            age: .weeks(12))
        #expect(throws: APIError.self) { _ = try UploadInspector.canonical(PatientRecord.fileName, data: try patient.encodedAlone(), session: name) }
        patient.patientID = 1_234_567_890_123
        #expect(throws: Never.self) { _ = try UploadInspector.canonical(PatientRecord.fileName, data: try patient.encodedAlone(), session: name) }
        // the Monday before
        let earlier = ConsentRecord(researchUse: true, decidedAt: Date(timeIntervalSince1970: 1_776_643_200), recordedBy: "test")
        #expect(throws: APIError.self) { _ = try UploadInspector.canonical(ConsentRecord.fileName, data: try earlier.encodedAlone(), session: name) }
        let same = ConsentRecord(researchUse: true, decidedAt: Date(timeIntervalSince1970: 1_777_248_000), recordedBy: "test")
        #expect(throws: Never.self) { _ = try UploadInspector.canonical(ConsentRecord.fileName, data: try same.encodedAlone(), session: name) }
    }

    @Test func anonymousNoiseWritesAFewAuditRowsAMinute() async throws {
        let harness = try await Harness.make(.sqlite)
        defer { Task { await harness.close() } }
        try await harness.app().test(.router) { client in
            for _ in 0..<60 { _ = try await client.execute(uri: "/api/sessions", method: .get) }
        }
        let rows = try await harness.store.auditLog(limit: 1000).filter { $0.action == "refused" }
        #expect(rows.count == harness.server.anonymousRefusals.perMinute)
        let budget = RefusalBudget()
        for _ in 0..<10 { #expect(budget.admit("a", now: 0) == 0) }
        for _ in 0..<5 { #expect(budget.admit("a", now: 1) == nil) }
        #expect(budget.admit("b", now: 1) == 0)
        #expect(budget.admit("a", now: 61) == 5)
    }

    @Test func aTUMDownloadExportsABoundedNumberOfSessions() async throws {
        let made = try await Harness.make(.sqlite)
        var server = made.server
        server.tumSessionLimit = 1
        let harness = Harness(server: server, data: made.data, schema: made.schema)
        defer { Task { await harness.close() } }
        let (_, token) = try await harness.device("phone-a")
        let password = try await harness.researcher("r@example.org")
        let fixtures = [try SessionFixture(patientID: 12), try SessionFixture(patientID: 13)]
        defer { fixtures.forEach { $0.remove() } }
        try await harness.app().test(.router) { client in
            for fixture in fixtures {
                _ = try await rawUpload(client, token: token, package: try SessionPackage(folder: fixture.folder, pseudonymiser: testPseudonymiser))
            }
            let export = try await client.execute(uri: "/api/download?format=tum", method: .get, headers: basic("r@example.org", password))
            #expect(export.status == .ok)
            let folder = try TUMDownloadTests.unzip(export)
            defer { try? FileManager.default.removeItem(at: folder) }
            let leftOut = try String(contentsOf: folder.appendingPathComponent("left-out.txt"), encoding: .utf8)
            #expect(leftOut.contains("at most 1 sessions"), "\(leftOut)")
        }
    }

    @Test(arguments: Backend.available)
    func parallelCompletesAllAnswerWithTheOneSession(_ backend: Backend) async throws {
        let harness = try await Harness.make(backend)
        defer { Task { await harness.close() } }
        let (_, token) = try await harness.device("phone-a")
        let fixture = try SessionFixture()
        defer { fixture.remove() }
        let package = try SessionPackage(folder: fixture.folder, pseudonymiser: testPseudonymiser)
        try await harness.app().test(.router) { client in
            let open = try await rawUpload(client, token: token, package: package, completing: false)
            let answers = try await withThrowingTaskGroup(of: (HTTPResponse.Status, String?).self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        let response = try await client.execute(uri: "/api/uploads/\(open.uploadID)/complete", method: .post, headers: bearer(token))
                        return (response.status, try? decode(UploadStatus.self, response).sessionID)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.allSatisfy { $0.0 == .ok }, "\(answers.map(\.0))")
            #expect(Set(answers.compactMap(\.1)).count == 1)
        }
        #expect(try await harness.store.sessions.matching(SessionFilter()).count == 1)
    }

    /// An upload of a session announced by device "phone-a", without any chunk received yet;
    /// its first file.
    static func announcedUpload(_ harness: Harness) async throws -> (Device, UploadStatus, SessionPackage.Item, SessionFixture) {
        let (device, token) = try await harness.device("phone-a")
        let fixture = try SessionFixture()
        let package = try SessionPackage(folder: fixture.folder, pseudonymiser: testPseudonymiser)
        let open = try await harness.app().test(.router) { client in
            try await rawUpload(client, token: token, package: package, completing: false)
        }
        _ = try await harness.store.database.query("DELETE FROM chunks", [])
        try? FileManager.default.removeItem(at: harness.data.appendingPathComponent("incoming/\(open.uploadID)"))
        return (device, open, try #require(package.items.first), fixture)
    }

    @Test(arguments: Backend.available)
    func aChunkArrivingAsItsDeviceIsRevokedLeavesNothing(_ backend: Backend) async throws {
        let harness = try await Harness.make(backend)
        defer { Task { await harness.close() } }
        let (device, open, item, fixture) = try await Self.announcedUpload(harness)
        defer { fixture.remove() }
        let bytes = try SessionPackage.read(item, offset: 0, length: item.manifest.chunkLength(0, chunkSize: 1024))
        await #expect(throws: APIError.self) {
            _ = try await harness.server.uploads.putChunk(
                uploadID: open.uploadID, fileName: item.manifest.name, index: "0", checksum: Digest.sha256(bytes), device: device
            ) {
                try await harness.store.devices.revoke(name: "phone-a")
                return bytes
            }
        }
        let left = (try? FileManager.default.contentsOfDirectory(atPath: harness.data.appendingPathComponent("incoming").path)) ?? []
        #expect(left.isEmpty, "\(left)")
    }

    /// Two different bodies of one chunk at once: the one the database records is the one on
    /// disk, and the other is told so.
    @Test(arguments: Backend.available)
    func twoBodiesOfOneChunkLeaveTheRecordedOne(_ backend: Backend) async throws {
        let harness = try await Harness.make(backend)
        defer { Task { await harness.close() } }
        let (device, open, item, fixture) = try await Self.announcedUpload(harness)
        defer { fixture.remove() }
        let length = item.manifest.chunkLength(0, chunkSize: 1024)
        let bodies = [Data(repeating: 1, count: length), Data(repeating: 2, count: length)]
        let arrived = Locked(0)
        let outcomes = try await withThrowingTaskGroup(of: Int.self) { group in
            for body in bodies {
                group.addTask {
                    do {
                        _ = try await harness.server.uploads.putChunk(
                            uploadID: open.uploadID, fileName: item.manifest.name, index: "0", checksum: Digest.sha256(body), device: device
                        ) {
                            // Both bodies have arrived before either is stored.
                            arrived.withLock { $0 += 1 }
                            while arrived.withLock({ $0 }) < 2 { try await Task.sleep(for: .milliseconds(1)) }
                            return body
                        }
                        return 200
                    } catch let error as APIError {
                        return Int(error.status.code)
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.sorted() == [200, 409], "\(outcomes)")
        let recorded = try #require(try await harness.store.uploads.chunks(uploadID: open.uploadID)[item.manifest.name]?[0])
        let onDisk = try Data(contentsOf: harness.data.appendingPathComponent("incoming/\(open.uploadID)/0-0"))
        #expect(Digest.sha256(onDisk) == recorded)
        let pending = try FileManager.default.contentsOfDirectory(atPath: harness.data.appendingPathComponent("incoming/\(open.uploadID)").path)
        #expect(pending == ["0-0"], "\(pending)")
    }

    /// Past its deadline the work is cancelled (were it not, the hour's wait would run into the
    /// test's time limit) and the answer is a 408.
    @Test(.timeLimit(.minutes(4))) func aTricklingBodyIsCutOffAtItsDeadline() async throws {
        let cancelled = Locked(false)
        let error = await #expect(throws: APIError.self) {
            _ = try await Deadline.within(.milliseconds(50)) {
                do {
                    try await Task.sleep(for: .seconds(3600))
                } catch {
                    cancelled.withLock { $0 = true }
                    throw error
                }
            }
        }
        #expect(error?.status == .requestTimeout)
        #expect(cancelled.withLock { $0 })
        #expect(try await Deadline.within(.seconds(30)) { 7 } == 7)
    }

    @Test func unexpectedErrorsAnswerWithWhatToDo() {
        let full = SecurityHeadersMiddleware<ServiceRequestContext>.unexpected(POSIXError(.ENOSPC))
        #expect(full.status == .serviceUnavailable && full.headers[.retryAfter] != nil && full.message.contains("disk space"))
        let other = SecurityHeadersMiddleware<ServiceRequestContext>.unexpected(CocoaError(.fileReadUnknown))
        #expect(other.status == .internalServerError && other.message.contains("try again"))
    }

    @Test func theDocumentedOptionsExist() throws {
        let process = Process()
        process.executableURL = IsolationTests.realHelper.executable
        process.arguments = ["serve", "--help"]
        let output = try ChildPipe()
        try process.run(input: nil, output: output, errors: nil)
        let text = String(decoding: output.reading.readDataToEndOfFile(), as: UTF8.self)
        _ = process.waitForEnd()
        for option in ["--reserve-gib", "--device-quota-gib", "--database-file", "HEADSCAN_DATABASE_URL", "--open-uploads-per-device"] {
            #expect(text.contains(option), "\(option)")
        }
    }
}
