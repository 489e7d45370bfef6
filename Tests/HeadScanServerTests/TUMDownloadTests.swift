import Foundation
import HTTPTypes
import HeadScanServer
import HeadScanTesting
import Hummingbird
import HummingbirdTesting
import Recording
import Testing
import Upload
import ZIPFoundation

/// Recordings downloaded in the TUM RGB-D layout, unzipped and imported back.
/// The time limit guards against a hang; it is no speed target. The whole suite on two busy
/// cores has kept these tests waiting past two minutes.
@Suite(.timeLimit(.minutes(6))) struct TUMDownloadTests {
    /// Unzips a response into a new temporary folder.
    static func unzip(_ response: TestResponse) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tum-download-\(UUID().uuidString)", isDirectory: true)
        let zip = folder.appendingPathExtension("zip")
        try Data(response.body.readableBytesView).write(to: zip)
        defer { try? FileManager.default.removeItem(at: zip) }
        try FileManager.default.unzipItem(at: zip, to: folder)
        return folder
    }

    /// Lines of a TUM list that are not comments.
    static func entries(_ url: URL) throws -> [String] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
    }

    @Test(arguments: Backend.available)
    func aSessionAndADatasetInTheTUMLayoutImportBack(_ backend: Backend) async throws {
        let harness = try await Harness.make(backend)
        defer { Task { await harness.close() } }
        let (_, token) = try await harness.device("phone-a")
        let password = try await harness.researcher("r@example.org")
        let viewerPassword = try await harness.researcher("v@example.org", role: .viewer)
        let researcher = basic("r@example.org", password)
        let recorded = try RealScan.session()
        // A session without a recording: it cannot be exported.
        let unreadable = try SessionFixture(patientID: 32)
        defer { unreadable.remove() }
        try FileManager.default.removeItem(at: unreadable.folder.appendingPathComponent("scan.hscan"))
        let package = try SessionPackage(folder: recorded.folder, pseudonymiser: testPseudonymiser)

        try await harness.app().test(.router) { client in
            let id = try #require(try await rawUpload(client, token: token, package: package, chunkSize: 1 << 20).sessionID)
            let badID = try #require(
                try await rawUpload(
                    client, token: token, package: try SessionPackage(folder: unreadable.folder, pseudonymiser: testPseudonymiser)
                ).sessionID)

            let response = try await client.execute(uri: "/api/sessions/\(id)/download?format=tum", method: .get, headers: researcher)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/zip")
            #expect(response.headers[.contentDisposition]?.contains("\(package.sessionName)-tum.zip") == true)
            let folder = try Self.unzip(response)
            defer { try? FileManager.default.removeItem(at: folder) }
            let session = folder.appendingPathComponent("clinic-a/\(package.sessionName)-\(id)", isDirectory: true)
            let n = recorded.frameCount
            #expect(n == 12)
            for list in ["rgb.txt", "depth.txt", "associations.txt"] {
                #expect(try Self.entries(session.appendingPathComponent(list)).count == n, "\(list)")
            }
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: session.appendingPathComponent("rgb").path).filter { $0.hasSuffix(".png") }.count
                    == n)
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: session.appendingPathComponent("depth").path).filter { $0.hasSuffix(".png") }
                    .count == n)
            let intrinsics = try JSONDecoder().decode(
                TUMFormat.Intrinsics.self, from: Data(contentsOf: session.appendingPathComponent("intrinsics.json")))
            #expect(intrinsics.color == SimulatedSessionFixture.camera)
            // Not processed: no poses, so no trajectory.
            #expect(!FileManager.default.fileExists(atPath: session.appendingPathComponent(TUMFormat.groundTruthFileName).path))
            let index = try JSONDecoder().decode(SessionList.self, from: Data(contentsOf: folder.appendingPathComponent("sessions.json")))
            #expect(index.sessions.map(\.id) == [id])

            // The command line's importer reads it back, frame for frame.
            let back = folder.appendingPathComponent("back.hscan")
            #expect(try TUMImporter().importFolder(session, to: back, options: .init(colorCodec: .png)) == n)
            let original = try ScanReader(url: recorded.folder.appendingPathComponent("scan.hscan"))
            let imported = try ScanReader(url: back)
            #expect(imported.frameCount == original.frameCount)
            #expect(abs(imported.durationSeconds - original.durationSeconds) < 1e-5)
            #expect(try imported.frame(at: n - 1).color.pixels.map(\.rgb) == original.frame(at: n - 1).color.pixels.map(\.rgb))

            let log = try await harness.store.auditLog()
            #expect(log.first?.action == "download-tum" && log.first?.sessionID == id && log.first?.actor == "researcher:r@example.org")

            // The whole set: the readable recording is exported, the other is named and left out.
            let dataset = try await client.execute(uri: "/api/download?site=clinic-a&format=tum", method: .get, headers: researcher)
            #expect(dataset.status == .ok)
            let set = try Self.unzip(dataset)
            defer { try? FileManager.default.removeItem(at: set) }
            let listed = try FileManager.default.contentsOfDirectory(atPath: set.path).sorted()
            #expect(listed == ["clinic-a", "left-out.txt", "sessions.json"])
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: set.appendingPathComponent("clinic-a").path) == ["\(package.sessionName)-\(id)"])
            let leftOut = try String(contentsOf: set.appendingPathComponent("left-out.txt"), encoding: .utf8)
            #expect(leftOut.contains("has no recording"))
            #expect(
                try TUMImporter().importFolder(
                    set.appendingPathComponent("clinic-a/\(package.sessionName)-\(id)"), to: set.appendingPathComponent("b.hscan")) == n)
            let after = try await harness.store.auditLog()
            #expect(after.count == log.count + 1 && after[0].action == "download-tum" && after[0].sessionID == id)

            // Nothing to export, an unknown format, a viewer: refused with the reason.
            let none = try await client.execute(uri: "/api/sessions/\(badID)/download?format=tum", method: .get, headers: researcher)
            #expect(none.status == .unprocessableContent)
            #expect(String(buffer: none.body).contains("as zip instead"))
            #expect(try await client.execute(uri: "/api/sessions/\(id)/download?format=rar", method: .get, headers: researcher).status == .badRequest)
            #expect(
                try await client.execute(uri: "/api/download?format=tum", method: .get, headers: basic("v@example.org", viewerPassword)).status
                    == .forbidden)
            // No download was written to the audit log, each refusal was.
            let refusals = try await harness.store.auditLog(limit: 3)
            #expect(refusals.allSatisfy { $0.action == "refused" }, "\(refusals)")
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: harness.data.appendingPathComponent("tmp").path)
            #expect(leftovers.isEmpty, "scratch files: \(leftovers)")
        }
    }
}
