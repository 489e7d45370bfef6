import CProcessControl
import ChildProcesses
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Work on uploaded data in a process of its own: the service's own binary started with a
/// subcommand (`inspect-upload`, `tum-export`, `process-folder`), so that a file that trips a
/// fault, eats memory or loops fails its own upload, download or job and never the service.
public struct Isolation: Sendable {
    /// The `headscan-server` binary.
    public var executable: URL
    /// Seconds a helper may run before it is killed.
    public var timeLimit: Double = 600

    public init(executable: URL, timeLimit: Double = 600) {
        self.executable = executable
        self.timeLimit = timeLimit
    }

    /// The running binary, when it can be found.
    public static var currentExecutable: Isolation? {
        let url = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        if FileManager.default.isExecutableFile(atPath: url.path), url.path != "/proc/self/exe" { return Isolation(executable: url) }
        return Bundle.main.executableURL.map { Isolation(executable: $0) }
    }

    /// Why isolated work failed.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        /// The helper was stopped for running past its time.
        public var timedOut = false
    }

    /// Most bytes of a helper's answer on standard output that are read.
    static let maximumOutputBytes = 64 << 20

    /// Runs the binary with `arguments` and returns what it printed; a crash, a non-zero exit or
    /// running past `timeLimit` becomes a `Failure` with the end of what it wrote to standard
    /// error. A cancelled task kills the helper (a client that hung up stops its export).
    func run(_ arguments: [String]) async throws -> Data {
        let executable = self.executable
        let timeLimit = self.timeLimit
        let running = Locked<Process?>(nil)
        return try await withTaskCancellationHandler {
            try await ResearchServer.offload {
                let process = Process()
                let (output, errors) = try Self.spawning.withLock {
                    process.executableURL = executable
                    process.arguments = arguments
                    let output = try ChildPipe(), errors = try ChildPipe()
                    process.environment = Self.helperEnvironment(ProcessInfo.processInfo.environment)
                    try process.run(input: nil, output: output, errors: errors)
                    return (output, errors)
                }
                running.withLock { $0 = process }
                let timedOut = Locked(false)
                // A thread of its own keeps the time: a timer on a shared queue busy with other
                // work would let the helper run on.
                let finished = DispatchSemaphore(value: 0)
                let watchdog = Thread {
                    guard finished.wait(timeout: .now() + timeLimit) == .timedOut, !process.hasEnded else { return }
                    timedOut.withLock { $0 = true }
                    kill(process.processIdentifier, SIGKILL)
                }
                watchdog.start()
                // Read both while it runs, so a full pipe never blocks it.
                let errorText = Locked(Data())
                let reader = Thread { errorText.withLock { $0 = Self.read(errors.reading, limit: 1 << 20) } }
                reader.start()
                let data = Self.read(output.reading, limit: Self.maximumOutputBytes)
                let end = process.waitForEnd()
                finished.signal()
                while !watchdog.isFinished { Thread.sleep(forTimeInterval: 0.001) }
                running.withLock { $0 = nil }
                while !reader.isFinished { Thread.sleep(forTimeInterval: 0.001) }
                if timedOut.withLock({ $0 }) {
                    throw Failure(
                        description: "the \(arguments.first ?? "work") process ran longer than \(Int(timeLimit)) s and was stopped", timedOut: true)
                }
                let what = arguments.first ?? "work"
                switch end {
                case .exited(0): break
                case .signalled(let signal):
                    // A runtime's message may quote the data it tripped on: only its kind.
                    let fault = errorText.withLock { $0 }.range(of: Data("Fatal error".utf8)) != nil ? " (a fault in the program)" : ""
                    throw Failure(description: "the \(what) process stopped by signal \(signal)\(fault)")
                case .exited(let status):
                    // The helpers print only a summary of their own words on failure.
                    let tail = Self.lastLine(errorText.withLock { $0 })
                    throw Failure(description: "the \(what) process exited with \(status)\(tail.isEmpty ? "" : ": \(tail)")")
                }
                return data
            }
        } onCancel: {
            running.withLock { process in
                if let process, !process.hasEnded { kill(process.processIdentifier, SIGKILL) }
            }
        }
    }

    /// Held while a helper is started. A child inherits whatever descriptors are open at its
    /// start and not yet closed-on-exec, such as another helper's pipes created a moment
    /// before by another thread; a helper holding another's pipe keeps it from ever ending.
    static let spawning = NSLock()

    /// Name of the variable that tells a helper its parent's process number.
    static let parentVariable = "HEADSCAN_HELPER_PARENT"

    /// The service's environment for a helper, with two changes. The runtime's crash reporter
    /// is off: a helper that faults (or finds its reader gone) would otherwise spend seconds of
    /// processor time symbolicating its binary, which a crafted upload could ask for again and
    /// again and which a restart of the service paid once per orphaned helper. And the helper
    /// learns its parent, so that it can stop when the service stops.
    static func helperEnvironment(_ inherited: [String: String]) -> [String: String] {
        var environment = inherited
        environment["SWIFT_BACKTRACE"] = "enable=no"
        environment[parentVariable] = String(getpid())
        return environment
    }

    /// The helper's last line on standard error, cleaned for the log (printable ASCII, short).
    static func lastLine(_ data: Data) -> String {
        let text = String(decoding: data.suffix(2000), as: UTF8.self)
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return LogText.label(lines.last ?? "", limit: 160)
    }

    /// Writes a helper's answer to standard output; a reader that is gone (the service stopped)
    /// ends the helper quietly instead of faulting.
    public static func answer(_ data: Data) {
        do {
            try FileHandle.standardOutput.write(contentsOf: data)
        } catch {
            exit(3)
        }
    }

    /// Reads to the end, keeping at most `limit` bytes (the rest is drained so the writer ends).
    static func read(_ handle: FileHandle, limit: Int) -> Data {
        var kept = Data()
        while let piece = try? handle.read(upToCount: 1 << 16), !piece.isEmpty {
            if kept.count < limit { kept.append(piece.prefix(limit - kept.count)) }
        }
        return kept
    }
}

/// Limits a helper process sets on itself before it reads a byte of uploaded data: address
/// space and processor time, so a decoder that runs away is stopped by the kernel.
public enum HelperLimits {
    /// Address space of a helper (a recording is read frame by frame; 2 GiB leaves room for
    /// the runtime's reservations and the largest mesh the service accepts).
    public static let memoryBytes: UInt64 = 2 << 30
    /// Processor seconds of a helper.
    public static let processorSeconds: UInt64 = 900

    /// Applies the limits to the calling process, and a lower scheduling priority, so that the
    /// service's own answers come first when uploads are being checked. A helper started by the
    /// service also dies with it: nobody would read its answer, and it would compete with the
    /// restarted service for the processor. (The kernel signals when the *thread* that started
    /// the helper ends; `Isolation.run` starts it from a thread that waits for it.)
    public static func apply(memoryBytes: UInt64 = memoryBytes, processorSeconds: UInt64 = processorSeconds) {
        if let parent = ProcessInfo.processInfo.environment[Isolation.parentVariable].flatMap({ Int32($0) }),
            hs_die_with_parent(parent) == 1
        {
            exit(3)
        }
        // The service ignores SIGTERM and SIGINT to shut down in order; a helper must not
        // inherit that, or nothing but SIGKILL would stop it.
        _ = hs_default_signals()
        // Memory freed after one frame is kept for the next frame (and the next upload)
        // instead of going back to the kernel and faulting in again: that was half of the
        // time a pooled helper spent checking a recording.
        hs_keep_freed_memory()
        var memory = rlimit(rlim_cur: rlim_t(memoryBytes), rlim_max: rlim_t(memoryBytes))
        var cpu = rlimit(rlim_cur: rlim_t(processorSeconds), rlim_max: rlim_t(processorSeconds + 5))
        #if canImport(Glibc)
        _ = setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &memory)
        _ = setrlimit(__rlimit_resource_t(RLIMIT_CPU.rawValue), &cpu)
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
        #else
        _ = setrlimit(RLIMIT_AS, &memory)
        _ = setrlimit(RLIMIT_CPU, &cpu)
        _ = setpriority(PRIO_PROCESS, 0, 10)
        #endif
    }
}
