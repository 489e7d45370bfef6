import Foundation
import HeadScanServer
import HeadScanTesting
import Hummingbird
import HummingbirdTesting
import Testing
import Upload

@Suite struct WorkerTests {
    /// Uploads one session with picks (annotations.json), which queues a job.
    func queuedSession(_ harness: Harness) async throws -> String {
        let (_, token) = try await harness.device("phone-\(UUID().uuidString.prefix(6))")
        let fixture = try SessionFixture(extra: ["annotations.json": Data(#"{"version": 2, "landmarks": {}}"#.utf8)])
        defer { fixture.remove() }
        let package = try SessionPackage(folder: fixture.folder, pseudonymiser: testPseudonymiser)
        return try await harness.app().test(.router) { client in
            try #require(try await rawUpload(client, token: token, package: package).sessionID)
        }
    }

    @Test(arguments: Backend.available)
    func aKilledWorkersJobIsTakenAgain(_ backend: Backend) async throws {
        let harness = try await Harness.make(backend)
        defer { Task { await harness.close() } }
        let sessionID = try await queuedSession(harness)
        #expect(try await harness.store.jobs.find(sessionID: sessionID)?.state == "queued")

        let first = try #require(try await harness.store.jobs.claim(worker: "a", lease: 30))
        #expect(first.sessionID == sessionID && first.attempts == 1)
        // While the lease runs nobody else gets it.
        #expect(try await harness.store.jobs.claim(worker: "b", lease: 30) == nil)
        // Worker a dies without a word; after the lease another worker takes the job. (The
        // lease is run out by renewing it into the past, not waited for: a loaded test machine
        // could otherwise outlast a short lease before the check above.)
        #expect(try await harness.store.jobs.renewLease(jobID: first.id, worker: "a", lease: -1))
        let second = try #require(try await harness.store.jobs.claim(worker: "b", lease: 30))
        #expect(second.id == first.id && second.attempts == 2)
        // The dead worker's late answer is ignored; it can no longer renew.
        try await harness.store.jobs.finish(jobID: first.id, worker: "a", error: nil)
        #expect(try await harness.store.jobs.find(sessionID: sessionID)?.state == "running")
        #expect(try await harness.store.jobs.renewLease(jobID: first.id, worker: "a", lease: 30) == false)
        #expect(try await harness.store.jobs.renewLease(jobID: first.id, worker: "b", lease: 30))
        try await harness.store.jobs.finish(jobID: second.id, worker: "b", error: nil)
        #expect(try await harness.store.jobs.find(sessionID: sessionID)?.state == "done")
        #expect(try await harness.store.jobs.claim(worker: "c", lease: 30) == nil)
    }

    @Test(arguments: Backend.available)
    func concurrentWorkersNeverShareAJob(_ backend: Backend) async throws {
        let harness = try await Harness.make(backend)
        defer { Task { await harness.close() } }
        var sessions: [String] = []
        for _ in 0..<6 { sessions.append(try await queuedSession(harness)) }
        let store = harness.store
        let claimed = try await withThrowingTaskGroup(of: [Job].self) { group in
            for worker in 0..<4 {
                group.addTask {
                    var mine: [Job] = []
                    while let job = try await store.jobs.claim(worker: "w\(worker)", lease: 60) { mine.append(job) }
                    return mine
                }
            }
            return try await group.reduce(into: [Job]()) { $0 += $1 }
        }
        #expect(claimed.count == 6)
        #expect(Set(claimed.map(\.sessionID)) == Set(sessions))
    }

    @Test(arguments: Backend.available)
    func aFailingJobIsRetriedThenMarkedFailed(_ backend: Backend) async throws {
        let harness = try await Harness.make(backend)
        defer { Task { await harness.close() } }
        let sessionID = try await queuedSession(harness)
        var worker = ProcessingWorker(store: harness.store, blobs: harness.server.blobs, name: "test-worker")
        worker.maximumAttempts = 2
        // The scan is random bytes and the picks are empty: processing must fail with a reason.
        for attempt in 1...2 {
            let outcome = try #require(try await worker.runOnce())
            guard case .failure(let failure) = outcome else { Issue.record("attempt \(attempt) should fail"); return }
            #expect(!failure.message.isEmpty)
        }
        let job = try #require(try await harness.store.jobs.find(sessionID: sessionID))
        #expect(job.state == "failed" && job.attempts == 2 && job.error != nil)
        #expect(try await worker.runOnce() == nil)
        // Scratch folders are cleaned up.
        let tmp = try FileManager.default.contentsOfDirectory(atPath: harness.data.appendingPathComponent("tmp").path)
        #expect(tmp.isEmpty)
    }
}
