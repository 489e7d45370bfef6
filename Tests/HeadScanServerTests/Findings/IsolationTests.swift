import Foundation
import HTTPTypes
import HeadScanTesting
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import Upload
import ZIPFoundation

@testable import HeadScanServer

/// Exports and processing of uploaded data run in a process of their own: a fault there fails
/// one download or one job, and the service answers on.
/// The time limit guards against a hang; it is no speed target. The whole suite on two busy
/// cores has kept these tests waiting past two minutes.
@Suite(.timeLimit(.minutes(6))) struct IsolationTests {
    /// A helper that dies by a segmentation fault, as a reader tripping on hostile data would.
    static func crashingHelper() throws -> Isolation {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("crash-\(UUID().uuidString).sh")
        try Data("#!/bin/sh\necho 'Fatal error: Index out of range' >&2\nkill -SEGV $$\n".utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: url.path)
        return Isolation(executable: url)
    }

    /// The `headscan-server` built beside the tests.
    static var realHelper: Isolation {
        Isolation(executable: URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("headscan-server"))
    }

    @Test func aCrashingExportOrJobFailsAloneAndTheServiceAnswersOn() async throws {
        // Uploads are checked in this process; exports and jobs run in the crashing helper.
        let harness = try await Harness.make(.sqlite)
        let crashing = try Self.crashingHelper()
        defer { try? FileManager.default.removeItem(at: crashing.executable) }
        var crashingServer = harness.server
        crashingServer.isolation = crashing
        defer { Task { await harness.close() } }
        let (_, token) = try await harness.device("phone-a")
        let password = try await harness.researcher("r@example.org")
        let fixture = try SessionFixture(extra: ["annotations.json": Data(#"{"version": 2, "landmarks": {}}"#.utf8)])
        defer { fixture.remove() }
        let id = try await harness.app().test(.router) { client in
            try #require(
                try await rawUpload(client, token: token, package: try SessionPackage(folder: fixture.folder, pseudonymiser: testPseudonymiser))
                    .sessionID)
        }
        try await Application(router: crashingServer.router()).test(.router) { client in
            // The download names the session it could not export, and why.
            let export = try await client.execute(
                uri: "/api/sessions/\(id)/download?format=tum", method: .get, headers: basic("r@example.org", password))
            #expect(export.status == .ok)
            let archive = try Archive(data: Data(export.body.readableBytesView), accessMode: .read)
            var leftOut = Data()
            _ = try archive.extract(try #require(archive["left-out.txt"])) { leftOut.append($0) }
            #expect(String(decoding: leftOut, as: UTF8.self).contains("the export stopped on it"))
            #expect(archive.map(\.path).sorted() == ["left-out.txt", "sessions.json"])
            #expect(
                try await client.execute(uri: "/api/sessions/\(id)/download", method: .get, headers: basic("r@example.org", password)).status == .ok)
            #expect(try await client.execute(uri: "/healthz", method: .get).status == .ok)

            var worker = ProcessingWorker(store: harness.store, blobs: harness.server.blobs, name: "w")
            worker.isolation = crashing
            let outcome = try #require(try await worker.runOnce())
            guard case .failure(let failure) = outcome else { Issue.record("the job must fail"); return }
            #expect(failure.message.contains("stopped by signal 11 (a fault in the program)"), "\(failure.message)")
            #expect(!failure.message.contains("Index out of range"), "the helper's own words stay out of the log")
        }
    }

    @Test func theServicesOwnHelperExportsTheRecording() async throws {
        let made = try await Harness.make(.sqlite)
        var server = made.server
        server.isolation = Self.realHelper
        let harness = Harness(server: server, data: made.data, schema: made.schema)
        defer { Task { await harness.close() } }
        let (_, token) = try await harness.device("phone-a")
        let password = try await harness.researcher("r@example.org")
        let recorded = try RealScan.session()
        let package = try SessionPackage(folder: recorded.folder, pseudonymiser: testPseudonymiser)
        try await harness.app().test(.router) { client in
            let id = try #require(try await rawUpload(client, token: token, package: package, chunkSize: 1 << 20).sessionID)
            let export = try await client.execute(
                uri: "/api/sessions/\(id)/download?format=tum", method: .get, headers: basic("r@example.org", password))
            #expect(export.status == .ok, "\(String(buffer: export.body))")
            let archive = try Archive(data: Data(export.body.readableBytesView), accessMode: .read)
            #expect(archive["clinic-a/\(package.sessionName)-\(id)/rgb.txt"] != nil)
        }
    }
}
