import Foundation
import HTTPTypes
import HeadScanTesting
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import Upload

@testable import HeadScanServer

/// Uploads that cannot fill the disk: per-device limits, a free-space reserve whose "no space"
/// keeps what was received, and clean-up of abandoned uploads and leftovers.
@Suite struct DiskTests {
    /// A harness whose disk reports `free` bytes.
    static func harness(_ backend: Backend, free: Locked<Int64>, _ change: (inout StorageLimits) -> Void = { _ in }) async throws -> Harness {
        let made = try await Harness.make(backend)
        var server = made.server
        var limits = StorageLimits()
        limits.reserveBytes = 1 << 20
        limits.freeSpace = { _ in free.withLock { $0 } }
        change(&limits)
        server.limits = limits
        return Harness(server: server, data: made.data, schema: made.schema)
    }

    func create(_ client: some TestClientProtocol, _ token: String, _ package: SessionPackage) async throws -> TestResponse {
        try await client.execute(
            uri: "/api/uploads", method: .post, headers: bearer(token),
            body: try json(CreateUploadRequest(sessionName: package.sessionName, chunkSize: 1024, files: package.manifest)))
    }

    @Test(arguments: Backend.available)
    func noSpaceWaitsAndKeepsWhatArrived(_ backend: Backend) async throws {
        let free = Locked<Int64>(100 << 20)
        let harness = try await Self.harness(backend, free: free)
        defer { Task { await harness.close() } }
        let (_, token) = try await harness.device("phone-a")
        let fixture = try SessionFixture()
        defer { fixture.remove() }
        let package = try SessionPackage(folder: fixture.folder, pseudonymiser: testPseudonymiser)
        try await harness.app().test(.router) { client in
            free.withLock { $0 = 1 << 20 }
            let before = try await harness.state()
            let full = try await create(client, token, package)
            #expect(full.status == .serviceUnavailable && full.headers[.retryAfter] != nil)
            #expect(try await harness.state() == before)

            free.withLock { $0 = 100 << 20 }
            let open = try decode(UploadStatus.self, try await create(client, token, package))
            let scan = try #require(package.items.first { $0.manifest.name == "scan.hscan" })
            func put(_ index: Int) async throws -> HTTPResponse.Status {
                let bytes = try SessionPackage.read(scan, offset: Int64(index * 1024), length: scan.manifest.chunkLength(index, chunkSize: 1024))
                var headers = bearer(token)
                headers[.chunkChecksum] = Digest.sha256(bytes)
                return try await client.execute(
                    uri: "/api/uploads/\(open.uploadID)/files/scan.hscan/chunks/\(index)", method: .put, headers: headers,
                    body: ByteBuffer(bytes: bytes)
                ).status
            }
            #expect(try await put(0) == .ok)
            free.withLock { $0 = 1 << 20 }
            #expect(try await put(1) == .serviceUnavailable)
            let status = try decode(
                UploadStatus.self, try await client.execute(uri: "/api/uploads/\(open.uploadID)", method: .get, headers: bearer(token)))
            #expect(status.received["scan.hscan"] == [0])

            // The rest arrives; completing on a full disk waits and keeps every chunk.
            free.withLock { $0 = 100 << 20 }
            try await rawUpload(client, token: token, package: package, completing: false)
            free.withLock { $0 = 1 << 20 }
            let waiting = try await client.execute(uri: "/api/uploads/\(open.uploadID)/complete", method: .post, headers: bearer(token))
            #expect(waiting.status == .serviceUnavailable)
            let kept = try decode(
                UploadStatus.self, try await client.execute(uri: "/api/uploads/\(open.uploadID)", method: .get, headers: bearer(token)))
            #expect(kept.state == .open && kept.received.values.map(\.count).reduce(0, +) > 0)
            free.withLock { $0 = 100 << 20 }
            let done = try await client.execute(uri: "/api/uploads/\(open.uploadID)/complete", method: .post, headers: bearer(token))
            #expect(done.status == .ok)
        }
    }

    @Test(arguments: Backend.available)
    func aDeviceHasFewOpenUploadsAndABoundedAnnouncement(_ backend: Backend) async throws {
        let free = Locked<Int64>(1 << 40)
        let harness = try await Self.harness(backend, free: free) { limits in
            limits.openUploadsPerDevice = 3
            limits.announcedBytesPerDevice = 64 << 10
        }
        defer { Task { await harness.close() } }
        let (_, token) = try await harness.device("phone-a")
        try await harness.app().test(.router) { client in
            var statuses: [HTTPResponse.Status] = []
            for patient in 1...4 {
                let fixture = try SessionFixture(patientID: patient)
                defer { fixture.remove() }
                statuses.append(try await create(client, token, try SessionPackage(folder: fixture.folder, pseudonymiser: testPseudonymiser)).status)
            }
            #expect(statuses == [.ok, .ok, .ok, .tooManyRequests])
            let big = try SessionFixture(patientID: 9, scanBytes: 100_000)
            defer { big.remove() }
            let other = try await harness.device("phone-b").1
            #expect(
                try await create(client, other, try SessionPackage(folder: big.folder, pseudonymiser: testPseudonymiser)).status == .contentTooLarge)
        }
    }

    @Test(arguments: Backend.available)
    func abandonedUploadsAndLeftoversAreCleanedUp(_ backend: Backend) async throws {
        let free = Locked<Int64>(1 << 40)
        let harness = try await Self.harness(backend, free: free) { $0.abandonedAfter = 0 }
        defer { Task { await harness.close() } }
        let (_, token) = try await harness.device("phone-a")
        let fixture = try SessionFixture()
        defer { fixture.remove() }
        let package = try SessionPackage(folder: fixture.folder, pseudonymiser: testPseudonymiser)
        let empty = try await harness.state()
        try await harness.app().test(.router) { client in
            try await rawUpload(client, token: token, package: package, completing: false)
        }
        // A killed process's leftovers: a chunk folder of no upload, a scratch file.
        try FileManager.default.createDirectory(at: harness.data.appendingPathComponent("incoming/gone"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: harness.data.appendingPathComponent("incoming/gone/0-0"))
        try Data("x".utf8).write(to: harness.data.appendingPathComponent("tmp/stage-left"))
        #expect(try await harness.state() != empty)
        try await Task.sleep(for: .milliseconds(20))
        let removed = try await harness.server.uploads.sweep(scratchAge: 0)
        #expect(removed.uploads == 1 && removed.scratch == 1)
        #expect(try await harness.state() == empty)
    }
}
