import Foundation
import Testing

@testable import HeadScanServer

/// The helpers that check uploads stay running between uploads, but a helper that fails is
/// never asked again, and each is replaced after its share of uploads.
@Suite(.timeLimit(.minutes(2))) struct InspectorPoolTests {
    /// A pooled helper as a shell script: `script` reads requests with `read line`.
    static func pool(_ script: String, timeLimit: Double = 30, jobsPerHelper: Int = 50) throws -> (InspectorPool, URL) {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pooled-\(UUID().uuidString).sh")
        try writeScript("#!/bin/sh\n\(script)\n", to: url)
        return (InspectorPool(isolation: Isolation(executable: url, timeLimit: timeLimit), jobsPerHelper: jobsPerHelper), url)
    }

    static let request = InspectorPool.Request(folder: "/nowhere", names: ["consent.json"], session: nil)
    /// The script's answer: the request's number, then the outcome naming the script's process.
    static let answerLine = #"echo "$(echo "$line" | sed 's/.*"id":\([0-9]*\).*/\1/') {\"values\":{\"measured\":false,\"pid\":$$}}""#

    /// The process that answered, from the script's answer.
    static func pid(_ answer: Data) throws -> Int {
        let object = try #require(try JSONSerialization.jsonObject(with: answer) as? [String: Any])
        return try #require((object["values"] as? [String: Any])?["pid"] as? Int)
    }

    @Test func oneHelperChecksOneUploadAfterAnother() async throws {
        let (pool, script) = try Self.pool("while read line; do \(Self.answerLine); done")
        defer { try? FileManager.default.removeItem(at: script) }
        var pids: Set<Int> = []
        for _ in 0..<5 { pids.insert(try Self.pid(try await pool.run(Self.request))) }
        #expect(pids.count == 1)
    }

    @Test func aHelperIsReplacedAfterItsShareOfUploads() async throws {
        let (pool, script) = try Self.pool("while read line; do \(Self.answerLine); done", jobsPerHelper: 2)
        defer { try? FileManager.default.removeItem(at: script) }
        var pids: [Int] = []
        for _ in 0..<6 { pids.append(try Self.pid(try await pool.run(Self.request))) }
        #expect(Set(pids).count == 3)
        #expect(pids[0] == pids[1] && pids[2] == pids[3] && pids[1] != pids[2])
    }

    /// The second request kills the helper (as a decoder's fault would): that request fails,
    /// and the next is answered by a new helper.
    @Test(arguments: ["kill -SEGV $$", "kill -KILL $$", "exit 4", "printf half-a-line; kill -TERM $$"])
    func aHelperThatDiesFailsItsRequestAloneAndIsNotAskedAgain(_ ending: String) async throws {
        let (pool, script) = try Self.pool("read line; \(Self.answerLine); read line; echo 'Fatal error: Max Mustermann' >&2; \(ending)")
        defer { try? FileManager.default.removeItem(at: script) }
        let first = try Self.pid(try await pool.run(Self.request))
        await #expect(throws: Isolation.Failure.self) { try await pool.run(Self.request) }
        let third = try Self.pid(try await pool.run(Self.request))
        #expect(third != first)
    }

    /// The helper would sleep for an hour, far past the suite's two-minute limit, so an answer
    /// at all shows it was stopped. No wall-clock bound: on two busy cores, starting, stopping
    /// and reaping a helper once took 45 s in a full parallel run.
    @Test func aHelperPastItsTimeIsStoppedAndSaysSo() async throws {
        let (pool, script) = try Self.pool("read line; exec sleep 3600", timeLimit: 0.5)
        defer { try? FileManager.default.removeItem(at: script) }
        do {
            _ = try await pool.run(Self.request)
            Issue.record("a helper that never answered gave an answer")
        } catch let failure as Isolation.Failure {
            #expect(failure.timedOut)
        }
    }

    /// A helper that says more than its answer (here two answers in one write, so the test
    /// does not depend on timing) is out of step: that request fails and the helper is not
    /// asked again.
    @Test func aHelperThatAnswersTwiceIsNotAskedAgain() async throws {
        let twice =
            #"id=$(echo "$line" | sed 's/.*"id":\([0-9]*\).*/\1/'); printf '%s {"values":{"measured":false}}\n%s {"values":{"measured":false}}\n' $id $id"#
        // Only the first helper misbehaves (it leaves a mark), so the second request shows
        // that a new helper answers it.
        let mark = FileManager.default.temporaryDirectory.appendingPathComponent("twice-\(UUID().uuidString)").path
        let (pool, script) = try Self.pool(
            "read line; if [ -e \(mark) ]; then \(Self.answerLine); else touch \(mark); \(twice); fi; while read line; do \(Self.answerLine); done")
        defer {
            try? FileManager.default.removeItem(at: script)
            try? FileManager.default.removeItem(atPath: mark)
        }
        await #expect(throws: Isolation.Failure.self) { try await pool.run(Self.request) }
        _ = try Self.pid(try await pool.run(Self.request))
    }

    /// A helper that ends while it waits (stopped from outside) fails nobody's upload: the
    /// next request goes to a new one.
    @Test func aHelperThatEndedWhileWaitingIsNotAsked() async throws {
        let (pool, script) = try Self.pool("while read line; do \(Self.answerLine); done")
        defer { try? FileManager.default.removeItem(at: script) }
        let first = try Self.pid(try await pool.run(Self.request))
        kill(Int32(first), SIGKILL)
        // Until the kernel has ended it: a process woken to die can wait for a core for a
        // while on two busy ones, and until then it looks like a helper at work.
        try await Self.waitUntilEnded(Int32(first))
        let second = try Self.pid(try await pool.run(Self.request))
        #expect(second != first)
    }

    /// A helper that ends before it reads the request (here the first one started, which
    /// exits at once) is no verdict on the upload: a new helper answers it.
    @Test func aHelperThatEndsBeforeReadingPassesTheUploadOn() async throws {
        let mark = FileManager.default.temporaryDirectory.appendingPathComponent("unread-\(UUID().uuidString)").path
        let (pool, script) = try Self.pool("if [ ! -e \(mark) ]; then touch \(mark); exit 0; fi; while read line; do \(Self.answerLine); done")
        defer {
            try? FileManager.default.removeItem(at: script)
            try? FileManager.default.removeItem(atPath: mark)
        }
        _ = try Self.pid(try await pool.run(Self.request))
        #expect(FileManager.default.fileExists(atPath: mark))
    }

    /// Helpers that never read anything fail the upload after a few, saying so.
    @Test func helpersThatNeverReadFailTheUploadAfterAFew() async throws {
        let (pool, script) = try Self.pool("exit 0")
        defer { try? FileManager.default.removeItem(at: script) }
        do {
            _ = try await pool.run(Self.request)
            Issue.record("helpers that never read gave an answer")
        } catch let failure as Isolation.Failure {
            #expect(failure.description.contains("before it read the upload"), "\(failure.description)")
        }
    }

    /// A helper that ends while a process it left behind holds what it inherited (as a child
    /// started by another thread at the same moment can) is seen to end: its upload fails with
    /// its own exit status, and the next upload goes to a new helper.
    @Test func aHelperThatLeftAProcessBehindIsSeenToEnd() async throws {
        let mark = FileManager.default.temporaryDirectory.appendingPathComponent("left-\(UUID().uuidString)")
        let (pool, script) = try Self.pool(
            "if [ -e \(mark.path) ]; then while read line; do \(Self.answerLine); done; exit 0; fi; read line; sleep 600 </dev/null >/dev/null 2>&1 & echo $! > \(mark.path); exit 4"
        )
        defer {
            ProcessEndTests.stopProcess(namedIn: mark)
            try? FileManager.default.removeItem(at: script)
        }
        do {
            _ = try await pool.run(Self.request)
            Issue.record("a helper that exited gave an answer")
        } catch let failure as Isolation.Failure {
            #expect(failure.description.contains("exited with 4"), "\(failure.description)")
        }
        _ = try Self.pid(try await pool.run(Self.request))
    }

    /// Waits until `pid` is gone or a zombie (its descriptors closed either way).
    static func waitUntilEnded(_ pid: Int32) async throws {
        for _ in 0..<3000 {
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            let state = stat.split(separator: ")").last?.split(separator: " ").first
            if kill(pid, 0) != 0 || state == "Z" { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("process \(pid) did not end within 30 s of its kill")
    }

    /// An answer that names another request is never taken for this one's.
    @Test func anAnswerForAnotherRequestIsRefused() async throws {
        let (pool, script) = try Self.pool(#"while read line; do echo "1 {\"values\":{\"measured\":false}}"; done"#)
        defer { try? FileManager.default.removeItem(at: script) }
        await #expect(throws: Isolation.Failure.self) { try await pool.run(Self.request) }
    }

    /// The real helper checks one staged upload after another and keeps its encoding of each.
    @Test func theServicesHelperServesRequestsInALoop() async throws {
        let pool = InspectorPool(isolation: IsolationTests.realHelper)
        for round in 0..<2 {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pool-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let consent = #"{"version":1,"researchUse":true,"decidedAt":"2026-04-27T00:00:00Z","recordedBy":"nurse"}"#
            try Data(consent.utf8).write(to: folder.appendingPathComponent("0"))
            let answer = try await pool.run(.init(folder: folder.path, names: ["consent.json"], session: nil))
            let outcome = try JSONDecoder().decode(InspectionOutcome.self, from: answer)
            #expect(outcome.refusal == nil, "round \(round): \(String(decoding: answer, as: UTF8.self))")
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("0.kept").path), "round \(round)")
        }
    }
}

/// Writes an executable script through a descriptor closed on exec: a helper that another test
/// starts at that moment must not keep the script open for writing, or starting the script
/// fails as a busy text file.
func writeScript(_ text: String, to url: URL) throws {
    let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o700)
    guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown) }
    defer { close(descriptor) }
    let bytes = Array(text.utf8)
    let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    guard written == bytes.count else { throw CocoaError(.fileWriteUnknown) }
}
