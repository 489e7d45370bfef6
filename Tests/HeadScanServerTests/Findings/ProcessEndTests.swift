import ChildProcesses
import Foundation
import Testing

@testable import HeadScanServer

/// A helper's end is taken from the kernel, so a process it left behind (or a child that
/// inherited its descriptors) cannot make an ended helper look alive. Foundation's own
/// `isRunning` and `waitUntilExit()` wait for such a process too; each test here would wait
/// ten minutes on them.
@Suite(.timeLimit(.minutes(2))) struct ProcessEndTests {
    /// A shell that leaves `sleep 600` behind (its standard streams elsewhere, everything else
    /// inherited), prints its number and ends with `ending`.
    static func leavesAProcessBehind(_ ending: String) throws -> (Process, left: Int32) {
        let output = try ChildPipe()
        let process = try started("/bin/sh", ["-c", "sleep 600 </dev/null >/dev/null 2>&1 & echo $!; \(ending)"], output: output)
        let line = String(decoding: output.reading.readDataToEndOfFile(), as: UTF8.self)
        return (process, Int32(line.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0)
    }

    /// `path` started with `arguments`, reading `input` and writing `output` where given.
    static func started(_ path: String, _ arguments: [String], input: ChildPipe? = nil, output: ChildPipe? = nil) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        try process.run(input: input, output: output, errors: nil)
        return process
    }

    @Test func anEndedChildIsSeenEndedWhileAProcessItLeftRuns() throws {
        let (process, left) = try Self.leavesAProcessBehind("exit 5")
        defer { if left > 0 { kill(left, SIGKILL) } }
        #expect(left > 0)
        #expect(process.waitForEnd() == .exited(5))
        #expect(process.hasEnded)
        #expect(kill(left, 0) == 0, "the process left behind still runs")
    }

    @Test func aSignalThatEndedAChildIsNamed() throws {
        let process = try Self.started("/bin/sleep", ["600"])
        kill(process.processIdentifier, SIGKILL)
        #expect(process.waitForEnd() == .signalled(SIGKILL))
    }

    @Test func aRunningChildHasNotEnded() throws {
        let input = try ChildPipe()
        let process = try Self.started("/bin/sh", ["-c", "read line; exit 0"], input: input)
        #expect(!process.hasEnded)
        try input.writing.write(contentsOf: Data("go\n".utf8))
        try input.writing.close()
        #expect(process.waitForEnd() == .exited(0))
        // Asked again once Foundation may have reaped it, the answer stands.
        while process.isRunning { Thread.sleep(forTimeInterval: 0.001) }
        #expect(process.hasEnded && process.waitForEnd() == .exited(0))
    }

    /// An export or job helper that leaves a process behind is done when it ends.
    @Test func aSingleUseHelperThatLeftAProcessBehindIsDone() async throws {
        let mark = FileManager.default.temporaryDirectory.appendingPathComponent("left-\(UUID().uuidString)")
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("leaves-\(UUID().uuidString).sh")
        try writeScript("#!/bin/sh\nsleep 600 </dev/null >/dev/null 2>&1 &\necho $! > \(mark.path)\necho done\n", to: url)
        defer {
            Self.stopProcess(namedIn: mark)
            try? FileManager.default.removeItem(at: url)
        }
        let output = try await Isolation(executable: url, timeLimit: 60).run(["export"])
        #expect(String(decoding: output, as: UTF8.self) == "done\n")
    }

    /// Ends the process whose number a script wrote to `mark`, and removes the mark.
    static func stopProcess(namedIn mark: URL) {
        if let text = try? String(contentsOf: mark, encoding: .utf8), let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 0 {
            kill(pid, SIGKILL)
        }
        try? FileManager.default.removeItem(at: mark)
    }
}
