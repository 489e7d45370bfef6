import ChildProcesses
import Foundation
import Testing

@testable import HeadScanServer

#if canImport(Glibc)
import Glibc
#endif

/// A helper lives no longer than the service that started it, and never spends the processor on
/// a crash report: a service killed during a load run used to leave its helpers running, each
/// faulting on its closed answer pipe and symbolicating its binary for seconds.
/// The time limit guards against a hang; it is no speed target. The whole suite on two busy
/// cores has kept these tests waiting past two minutes.
@Suite(.timeLimit(.minutes(3))) struct HelperLifetimeTests {
    @Test func helpersRunWithoutTheCrashReporterAndKnowTheirParent() {
        let environment = Isolation.helperEnvironment(["PATH": "/usr/bin", "SWIFT_BACKTRACE": "enable=yes"])
        #expect(environment["SWIFT_BACKTRACE"] == "enable=no")
        #expect(environment[Isolation.parentVariable] == String(getpid()))
        #expect(environment["PATH"] == "/usr/bin")
    }

    #if os(Linux)
    /// The state letter of a process in /proc, nil when it is gone.
    static func state(_ pid: Int32) -> Character? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        return text[close...].dropFirst(2).first
    }

    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("helper-life-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func aHelperWhoseServiceIsAlreadyGoneDoesNothing() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"{"version": 1, "researchUse": true, "decidedAt": "2026-04-27T00:00:00Z", "recordedBy": "x"}"#.utf8)
            .write(to: folder.appendingPathComponent("0"))
        let process = Process()
        process.executableURL = IsolationTests.realHelper.executable
        process.arguments = ["inspect-upload", "--folder", folder.path, "--name", "consent.json"]
        // A parent that is not this process's parent: the one that started it is gone.
        var environment = Isolation.helperEnvironment(ProcessInfo.processInfo.environment)
        environment[Isolation.parentVariable] = String(Int32.max)
        process.environment = environment
        try process.run(input: nil, output: nil, errors: nil)
        #expect(process.waitForEnd() == .exited(3))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("0.kept").path))
        // The same call with its true parent checks the file.
        let checked = Process()
        checked.executableURL = process.executableURL
        checked.arguments = process.arguments
        checked.environment = Isolation.helperEnvironment(ProcessInfo.processInfo.environment)
        try checked.run(input: nil, output: nil, errors: nil)
        #expect(checked.waitForEnd() == .exited(0))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("0.kept").path))
    }

    /// A service (a shell, `prelude` first) that starts a helper waiting on a staged pipe nobody
    /// writes, as on a slow disk; the helper's pid.
    static func serviceWithWaitingHelper(in folder: URL, prelude: String = "") throws -> (Process, Int32) {
        #expect(mkfifo(folder.appendingPathComponent("0").path, 0o600) == 0)
        let service = Process()
        service.executableURL = URL(fileURLWithPath: "/bin/sh")
        service.arguments = [
            "-c",
            prelude + "HEADSCAN_HELPER_PARENT=$$ SWIFT_BACKTRACE=enable=no \"$0\" inspect-upload --folder \"$1\" --name scan.hscan & echo $!; wait",
            IsolationTests.realHelper.executable.path, folder.path,
        ]
        let output = try ChildPipe()
        try service.run(input: nil, output: output, errors: nil)
        var line = Data()
        while let byte = try output.reading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) { line.append(byte) }
        let pid = try #require(Int32(String(decoding: line, as: UTF8.self)))
        Thread.sleep(forTimeInterval: 0.5)
        let waiting = state(pid)
        #expect(waiting != nil && waiting != "Z", "the helper waits on its input while the service runs")
        return (service, pid)
    }

    /// Whether `pid` is gone (or a zombie) within 5 s; one still running is killed.
    static func ends(_ pid: Int32) -> Bool {
        var state = state(pid)
        for _ in 0..<100 where state != nil && state != "Z" {
            Thread.sleep(forTimeInterval: 0.05)
            state = Self.state(pid)
        }
        if let state, state != "Z" {
            kill(pid, SIGKILL)
            return false
        }
        return true
    }

    @Test func aHelperDiesWithTheServiceThatStartedIt() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (service, pid) = try Self.serviceWithWaitingHelper(in: folder)
        kill(service.processIdentifier, SIGKILL)
        _ = service.waitForEnd()
        #expect(Self.ends(pid), "the helper is gone within 5 s of its service")
    }

    /// A service ignores SIGTERM and SIGINT to shut down in order, and a process inherits ignored
    /// signals across exec: its helpers could then be stopped by nothing but SIGKILL.
    @Test func aHelperStopsOnSIGTERMThoughItsServiceIgnoresIt() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (service, pid) = try Self.serviceWithWaitingHelper(in: folder, prelude: "trap '' TERM INT; ")
        defer {
            kill(service.processIdentifier, SIGKILL)
            _ = service.waitForEnd()
        }
        kill(pid, SIGTERM)
        #expect(Self.ends(pid), "the helper ends within 5 s of SIGTERM")
    }
    #endif
}
