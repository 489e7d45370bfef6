import Foundation
import Geometry
import HTTPTypes
import HeadScanServer
import HeadScanTesting
import Hummingbird
import HummingbirdTesting
import Processing
import Recording
import ScanLibrary
import Testing
import Upload

/// A worker processes an uploaded session with a real (simulated) recording and landmark picks
/// through the whole pipeline: reconstruction, lifting, measuring, report; after a worker that
/// took the job died without a word.
/// The time limit guards against a hang; it is no speed target. The whole suite on two busy
/// cores has kept these tests waiting past two minutes.
@Suite(.timeLimit(.minutes(8))) struct RealScanWorkerTests {
    @Test(arguments: Backend.available)
    func aDeadWorkersJobIsTakenAgainAndTheScanIsMeasured(_ backend: Backend) async throws {
        let harness = try await Harness.make(backend)
        defer { Task { await harness.close() } }
        let (_, token) = try await harness.device("phone-a")
        let password = try await harness.researcher("r@example.org")
        let researcher = basic("r@example.org", password)
        let fixture = try RealScan.session()
        let package = try SessionPackage(folder: fixture.folder, pseudonymiser: testPseudonymiser)

        try await harness.app().test(.router) { client in
            let id = try #require(try await rawUpload(client, token: token, package: package, chunkSize: 1 << 20).sessionID)
            #expect(try await harness.store.jobs.find(sessionID: id)?.state == "queued")

            // A worker takes the job and is killed at once: it never renews its lease nor answers.
            // The lease is long enough that a loaded machine still checks within it.
            let dead = try #require(try await harness.store.jobs.claim(worker: "killed-worker", lease: 2))
            #expect(dead.sessionID == id && dead.attempts == 1)
            var worker = ProcessingWorker(store: harness.store, blobs: harness.server.blobs, name: "live-worker")
            worker.processing = RealScan.quickProcessing
            worker.lease = 30
            // While the lease runs the job is not free.
            #expect(try await worker.runOnce() == nil)
            try await Task.sleep(for: .milliseconds(2200))
            let outcome = try #require(try await worker.runOnce())
            guard case .success(let jobID) = outcome else {
                Issue.record("processing failed: \(outcome)")
                return
            }
            #expect(jobID == dead.id)
            let job = try #require(try await harness.store.jobs.find(sessionID: id))
            #expect(job.state == "done" && job.attempts == 2 && job.error == nil)
            #expect(try await worker.runOnce() == nil)

            // The results are visible through the API, with the CVAI.
            let session = try decode(SessionSummary.self, try await client.execute(uri: "/api/sessions/\(id)", method: .get, headers: researcher))
            #expect(session.processing == "done" && session.measured)
            let cvai = try #require(session.cvai)
            // The simulated head's true values, measured from twelve frames and a 2.5 mm volume.
            #expect(abs(cvai - fixture.truth.cvai) < 1, "measured \(cvai) %, true \(fixture.truth.cvai) %")
            let circumference = try #require(session.circumferenceMM)
            // Twelve frames leave holes, and the outline's length follows the voxels' phase: the
            // same scan measured 397.1, 397.8 and 407.7 mm with voxels of 2.6, 2.5 and 2.4 mm, and
            // 411.6 mm scaled 0.3 % by its stickers' printed size (true 397.5). A scale gone wrong
            // (a depth unit, a focal length) is several per cent.
            #expect(abs(circumference - fixture.truth.circumferenceMM) < 20, "measured \(circumference) mm, true \(fixture.truth.circumferenceMM) mm")
            let names = Set(session.files.map(\.name))
            for name in ["measurement.json", "head.ply", "reconstruction.json", "report.pdf", "report.html", "asymmetry.ply"] {
                #expect(names.contains(name), "\(name) is missing: \(names.sorted())")
            }
            let measurement = try await client.execute(uri: "/api/sessions/\(id)/files/measurement.json", method: .get, headers: researcher)
            let object = try JSONSerialization.jsonObject(with: Data(measurement.body.readableBytesView)) as? [String: Any]
            let stored = (object?["measurement"] as? [String: Any])?["cvai"] as? Double
            #expect(stored == cvai)
            #expect((object?["landmarksSource"] as? String) == "picks")
            // Nothing processing wrote names a time finer than the session's week.
            for name in names where name.hasSuffix(".json") {
                let body = try await client.execute(uri: "/api/sessions/\(id)/files/\(name)", method: .get, headers: researcher)
                let value = try JSONDecoder().decode(JSONValue.self, from: Data(body.body.readableBytesView))
                #expect(ResearchCalendar.preciseDate(in: value) == nil, "\(name)")
            }
            let reconstruction = try await client.execute(uri: "/api/sessions/\(id)/files/reconstruction.json", method: .get, headers: researcher)
            let record = try ReconstructionRecord.decode(from: Data(reconstruction.body.readableBytesView))
            #expect(
                ResearchCalendar.isWeekStart(Date(timeIntervalSince1970: record.scan.modified))
                    && ResearchCalendar.isWeekStart(record.reconstructedAt))
            let pdf = try await client.execute(uri: "/api/sessions/\(id)/files/report.pdf", method: .get, headers: researcher)
            #expect(String(decoding: Data(pdf.body.readableBytesView), as: UTF8.self).contains("CreationDate (D:20260427000000"))
            let mesh = try await client.execute(uri: "/api/sessions/\(id)/mesh", method: .get, headers: researcher)
            let decoded = try PLY.decode([UInt8](Data(mesh.body.readableBytesView)))
            #expect(decoded.faces.count > 5000)
            // The asymmetry map is the same surface in its colours, for the page's 3D view.
            let map = try await client.execute(uri: "/api/sessions/\(id)/mesh?view=asymmetry", method: .get, headers: researcher)
            let colored = try PLY.decode([UInt8](Data(map.body.readableBytesView)))
            #expect(colored.hasColors && colored.faces.count == decoded.faces.count)
            #expect(try await client.execute(uri: "/api/sessions/\(id)/mesh?view=inside", method: .get, headers: researcher).status == .badRequest)
            let report = try await client.execute(uri: "/api/sessions/\(id)/files/report.pdf", method: .get, headers: researcher)
            #expect(String(decoding: Data(report.body.readableBytesView).prefix(5), as: UTF8.self) == "%PDF-")
            let html = try await client.execute(uri: "/api/sessions/\(id)/files/report.html", method: .get, headers: researcher)
            // The service's own report, with the CVAI to two decimals as the report prints it.
            let hundredths = Int((cvai * 100).rounded())
            #expect(String(buffer: html.body).contains("\(hundredths / 100).\(String(format: "%02d", hundredths % 100))"))

            // Processed: the TUM download carries the keyframe poses.
            let tum = try await client.execute(uri: "/api/sessions/\(id)/download?format=tum", method: .get, headers: researcher)
            let folder = try TUMDownloadTests.unzip(tum)
            defer { try? FileManager.default.removeItem(at: folder) }
            let trajectory = TUMFormat.parseTrajectory(
                try String(
                    contentsOf: folder.appendingPathComponent("clinic-a/\(package.sessionName)-\(id)/\(TUMFormat.groundTruthFileName)"),
                    encoding: .utf8))
            #expect(trajectory.count >= 4 && trajectory.count <= fixture.frameCount)
        }
        let tmp = try FileManager.default.contentsOfDirectory(atPath: harness.data.appendingPathComponent("tmp").path)
        #expect(tmp.isEmpty, "scratch left: \(tmp)")
    }
}
