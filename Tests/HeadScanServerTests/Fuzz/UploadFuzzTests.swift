import Foundation
import HTTPTypes
import HeadScanTesting
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import Upload

@testable import HeadScanServer

/// Seeded mutations of every file the service accepts, and of chunk and complete requests: no
/// crash, every refusal a 4xx, and nothing kept of a refused upload.
@Suite struct UploadFuzzTests {
    static let mutationsPerFile = 2000

    @Test func everyMutatedDocumentIsCheckedWithoutCrashing() throws {
        let fixture = try ResearchSessionSeeds.fixture()
        defer { fixture.remove() }
        let files = try ResearchSessionSeeds.files(try SessionPackage(folder: fixture.folder, pseudonymiser: testPseudonymiser))
        #expect(Set(files.map(\.name)) == Set(ResearchFiles.accepted.keys))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (index, file) in files.enumerated() {
            let url = folder.appendingPathComponent(file.name)
            try file.data.write(to: url)
            let kept = folder.appendingPathComponent("kept-" + file.name)
            #expect(throws: Never.self, "\(file.name) as the client sends it") {
                _ = try UploadInspector.inspect(file.name, at: url, writingTo: kept)
            }
            var mutator = DocumentMutator(seed: 0xF022 + UInt64(index))
            var refused = 0
            for round in 0..<Self.mutationsPerFile {
                try mutator.mutate(file.data).write(to: url)
                do {
                    _ = try UploadInspector.inspect(file.name, at: url, writingTo: kept)
                } catch {
                    #expect((400..<500).contains(error.status.code), "\(file.name) round \(round): \(error)")
                    refused += 1
                }
            }
            // Most mutations break the shape; the few that pass are harmless (a pixel moved).
            #expect(refused > Self.mutationsPerFile / 2, "\(file.name): only \(refused) refused")
        }
    }

    @Test(arguments: Backend.available)
    func refusedUploadsLeaveNothingBehind(_ backend: Backend) async throws {
        let harness = try await Harness.make(backend)
        defer { Task { await harness.close() } }
        let (_, token) = try await harness.device("phone-a")
        let fixture = try ResearchSessionSeeds.fixture()
        defer { fixture.remove() }
        let package = try SessionPackage(folder: fixture.folder, pseudonymiser: testPseudonymiser)
        let files = try ResearchSessionSeeds.files(package)
        var mutator = DocumentMutator(seed: 0xB10B)
        let mutated = (0..<Self.uploadRounds(backend)).map { mutator.mutate(files[$0 % files.count].data) }
        try await harness.app().test(.router) { client in
            for round in 0..<Self.uploadRounds(backend) {
                let target = files[round % files.count]
                var changed = package
                let data = mutated[round]
                let index = try #require(changed.items.firstIndex { $0.manifest.name == target.name })
                changed.items[index] = .init(
                    manifest: ManifestFile(name: target.name, size: Int64(data.count), sha256: Digest.sha256(data)), source: .data(data))
                let before = try await harness.state()
                let outcome = try await Self.upload(client, token: token, package: changed)
                if outcome == .ok {
                    // A harmless mutation was accepted: take the session away again for the next round.
                    try await Self.removeSessions(harness)
                    continue
                }
                #expect((400..<500).contains(outcome.code), "\(target.name) round \(round): \(outcome)")
                let after = try await harness.state()
                #expect(after.0 == before.0 && after.1 == before.1, "\(target.name) round \(round) left something behind")
            }
        }
    }

    /// Whole uploads with one mutated file; PostgreSQL repeats a share of SQLite's rounds (the
    /// checks are the same code), to keep the suite quick.
    static func uploadRounds(_ backend: Backend) -> Int { backend == .sqlite ? 180 : 60 }

    /// Create, every chunk, complete; the first answer that is not 200, else 200.
    static func upload(_ client: some TestClientProtocol, token: String, package: SessionPackage) async throws -> HTTPResponse.Status {
        let create = CreateUploadRequest(sessionName: package.sessionName, chunkSize: 1 << 16, files: package.manifest)
        let created = try await client.execute(uri: "/api/uploads", method: .post, headers: bearer(token), body: try json(create))
        guard created.status == .ok else { return created.status }
        let status = try decode(UploadStatus.self, created)
        for item in package.items {
            for index in 0..<item.manifest.chunkCount(chunkSize: 1 << 16) {
                let bytes = try SessionPackage.read(item, offset: Int64(index) << 16, length: item.manifest.chunkLength(index, chunkSize: 1 << 16))
                var headers = bearer(token)
                headers[.chunkChecksum] = Digest.sha256(bytes)
                let response = try await client.execute(
                    uri: "/api/uploads/\(status.uploadID)/files/\(item.manifest.name)/chunks/\(index)", method: .put, headers: headers,
                    body: ByteBuffer(bytes: bytes))
                guard response.status == .ok else { return response.status }
            }
        }
        return try await client.execute(uri: "/api/uploads/\(status.uploadID)/complete", method: .post, headers: bearer(token)).status
    }

    static func removeSessions(_ harness: Harness) async throws {
        for statement in ["DELETE FROM jobs", "DELETE FROM session_files", "DELETE FROM sessions", "DELETE FROM chunks", "DELETE FROM uploads"] {
            _ = try await harness.store.database.query(statement, [])
        }
        try? FileManager.default.removeItem(at: harness.data.appendingPathComponent("blobs"))
        try FileManager.default.createDirectory(at: harness.data.appendingPathComponent("blobs"), withIntermediateDirectories: true)
    }

    @Test(arguments: Backend.available)
    func mutatedChunkAndCompleteRequestsAreRefusedCleanly(_ backend: Backend) async throws {
        let harness = try await Harness.make(backend)
        defer { Task { await harness.close() } }
        let (_, token) = try await harness.device("phone-a")
        let (_, other) = try await harness.device("phone-b")
        let fixture = try ResearchSessionSeeds.fixture()
        defer { fixture.remove() }
        let package = try SessionPackage(folder: fixture.folder, pseudonymiser: testPseudonymiser)
        try await harness.app().test(.router) { client in
            let create = CreateUploadRequest(sessionName: package.sessionName, chunkSize: 1024, files: package.manifest)
            let open = try decode(
                UploadStatus.self, try await client.execute(uri: "/api/uploads", method: .post, headers: bearer(token), body: try json(create)))
            var mutator = DocumentMutator(seed: 0xC4C4)
            let scan = try #require(package.items.first { $0.manifest.name == "scan.hscan" })
            let chunk = try SessionPackage.read(scan, offset: 0, length: 1024)
            // The right request goes through amid the noise, and again (same bytes) later.
            var valid = bearer(token)
            valid[.chunkChecksum] = Digest.sha256(chunk)
            let first = try await client.execute(
                uri: "/api/uploads/\(open.uploadID)/files/scan.hscan/chunks/0", method: .put, headers: valid, body: ByteBuffer(bytes: chunk))
            #expect(first.status == .ok)
            for round in 0..<Self.requestRounds(backend) {
                let before = try await harness.state()
                let ids = [open.uploadID, open.uploadID, UUID().uuidString.lowercased(), "x", String(repeating: "a", count: 36), "../../etc"]
                let names = [
                    "scan.hscan", "scan.hscan", "consent.json", "report.html", "..%2f..%2fx", "", String(repeating: "n", count: 300), "scan.hscan%00",
                ]
                let indices = ["0", "1", "-1", "99999999999999999999", "0x1", "", "1e3", " 0", "00", "2"]
                var body = chunk
                if mutator.below(3) == 0 { body = mutator.mutateBytes(chunk) }
                var headers = bearer([token, token, token, other, "hsd_x"][mutator.below(5)])
                switch mutator.below(4) {
                case 0: headers[.chunkChecksum] = Digest.sha256(body)
                case 1: headers[.chunkChecksum] = Digest.sha256(chunk)
                case 2: headers[.chunkChecksum] = Digest.sha256(body).uppercased()
                default: break
                }
                let id = ids[mutator.below(ids.count)]
                let response: TestResponse
                if mutator.below(5) == 0 {
                    response = try await client.execute(
                        uri: "/api/uploads/\(id)/complete", method: .post, headers: headers, body: ByteBuffer(bytes: body.prefix(mutator.below(2000)))
                    )
                } else {
                    let uri = "/api/uploads/\(id)/files/\(names[mutator.below(names.count)])/chunks/\(indices[mutator.below(indices.count)])"
                    response = try await client.execute(uri: uri, method: .put, headers: headers, body: ByteBuffer(bytes: body))
                }
                let code = response.status.code
                #expect(code == 200 || (400..<500).contains(code), "round \(round): \(code) \(String(buffer: response.body))")
                if code == 200 { continue }
                let after = try await harness.state()
                #expect(after.0 == before.0 && after.1 == before.1, "round \(round) (\(code)) changed the stored state")
            }
        }
    }

    static func requestRounds(_ backend: Backend) -> Int { backend == .sqlite ? 2000 : 500 }
}
