import CProcessControl
import ChildProcesses
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Helpers that check uploads (`inspect-upload --serve`), kept running between uploads.
///
/// Starting the service's binary costs about 30 ms of processor time (loading its libraries,
/// the runtime's tables), a third of checking a 13 MB session; a helper that checks one upload
/// after another pays it once. Each helper still checks one upload at a time, so a file that
/// trips a fault, runs past its time or eats memory ends that helper and fails that upload
/// alone; a helper that failed is never used again, and every helper is replaced after
/// `jobsPerHelper` uploads. (Helpers run as the service's user, as single-use helpers did: the
/// separation is against faults, not against a decoder taken over.)
final class InspectorPool: Sendable {
    let isolation: Isolation
    /// Uploads one helper checks before it is replaced.
    let jobsPerHelper: Int
    /// Idle helpers kept for the next uploads.
    let idleLimit: Int
    private let idle = Locked<[PooledHelper]>([])
    private let spawner = SpawnerThread()

    init(isolation: Isolation, jobsPerHelper: Int = 50, idleLimit: Int = 4) {
        // A request written to a helper that has just died must fail that request, not end
        // the service by the signal a closed pipe raises.
        signal(SIGPIPE, SIG_IGN)
        self.isolation = isolation
        self.jobsPerHelper = jobsPerHelper
        self.idleLimit = idleLimit
    }

    deinit {
        for helper in idle.withLock({ $0 }) { helper.retire() }
        spawner.stop()
    }

    /// What the service asks one helper.
    struct Request: Codable {
        var folder: String
        var names: [String]
        var session: String?
        /// Named in the answer's line (`ID ANSWER`), so that an answer is never taken for
        /// another upload's.
        var id: UInt64 = 0

        init(folder: String, names: [String], session: String?) {
            (self.folder, self.names, self.session) = (folder, names, session)
        }
    }

    /// Checks one staged upload in a pooled helper and returns its answer (an
    /// `InspectionOutcome`); a helper that dies, exits or runs past the time limit is an
    /// `Isolation.Failure`, as with a single-use helper.
    func run(_ request: Request) async throws -> Data {
        var request = request
        request.id = UInt64.random(in: 1...UInt64.max)
        let line = try JSONEncoder().encode(request) + Data([0x0A])
        let id = request.id
        let timeLimit = isolation.timeLimit
        // A helper can end between the check that it runs and the request (the kernel takes
        // a moment to end a stopped process): one that never read the request is no verdict
        // on the upload, which goes to a new helper. A few at most, in case helpers cannot
        // start at all.
        for _ in 0..<Self.attemptsPerRequest {
            let helper = try await take()
            do {
                let answer = try await withTaskCancellationHandler {
                    try await ResearchServer.offload { try helper.ask(line, id: id, timeLimit: timeLimit) }
                } onCancel: {
                    helper.kill()
                }
                give(helper)
                return answer
            } catch is PooledHelper.EndedBeforeReading {
                helper.retire()
                try Task.checkCancellation()
            } catch {
                helper.retire()
                throw error
            }
        }
        throw Isolation.Failure(description: "the inspect-upload process ended before it read the upload, \(Self.attemptsPerRequest) times")
    }

    /// Helpers asked for one upload when each ends before it reads it.
    static let attemptsPerRequest = 3

    private func take() async throws -> PooledHelper {
        // A helper that ended while it waited (stopped from outside, the kernel's memory
        // killer) would fail an upload it never saw: it is let go instead.
        while let helper = idle.withLock({ $0.popLast() }) {
            if helper.isRunning && !helper.hasUnaskedOutput { return helper }
            helper.retire()
        }
        let executable = isolation.executable
        return try await ResearchServer.offload { [spawner] in
            // Started from a thread that lives as long as the service: the kernel's
            // parent-death signal follows the starting thread, not the process.
            try spawner.perform { try PooledHelper(executable: executable) }
        }
    }

    private func give(_ helper: PooledHelper) {
        guard helper.jobs < jobsPerHelper, !helper.hasUnaskedOutput else { return helper.retire() }
        let kept = idle.withLock { helpers in
            guard helpers.count < idleLimit else { return false }
            helpers.append(helper)
            return true
        }
        if !kept { helper.retire() }
    }
}

/// One `inspect-upload --serve` process: a request line in, an answer line out.
final class PooledHelper: @unchecked Sendable {
    private let process = Process()
    private let input: FileHandle
    private let output: FileHandle
    private let errorTail = Locked((text: Data(), ended: false))
    private let state = Locked((jobs: 0, retired: false, timedOut: false))

    /// Longest answer line read.
    static let maximumAnswerBytes = 1 << 20

    init(executable: URL) throws {
        let process = self.process
        let (stdin, stdout, stderr) = try Isolation.spawning.withLock {
            let stdin = try ChildPipe(), stdout = try ChildPipe(), stderr = try ChildPipe()
            process.executableURL = executable
            process.arguments = ["inspect-upload", "--serve"]
            process.environment = Isolation.helperEnvironment(ProcessInfo.processInfo.environment)
            try process.run(input: stdin, output: stdout, errors: stderr)
            return (stdin, stdout, stderr)
        }
        input = stdin.writing
        output = stdout.reading
        let errors = stderr.reading
        let tail = errorTail
        // Drained for the helper's whole life, so a full pipe never blocks it; the end kept
        // for the log when it fails.
        Thread {
            while let piece = Self.readSome(errors) {
                tail.withLock { $0.text = ($0.text + piece).suffix(4000) }
            }
            tail.withLock { $0.ended = true }
        }.start()
    }

    var jobs: Int { state.withLock { $0.jobs } }

    /// The helper ended, or stopped answering, with the whole request still unread in its
    /// input: whatever ended it, it was not the upload.
    struct EndedBeforeReading: Error {}

    var isRunning: Bool { !process.hasEnded }

    /// Sends one request and waits for its answer line; blocks the calling thread.
    func ask(_ request: Data, id: UInt64, timeLimit: Double) throws -> Data {
        state.withLock { $0.jobs += 1 }
        // The deadline is kept by this thread's own wait, not by a timer on a shared queue: a
        // queue busy with other work would let the helper run on.
        let deadline = Date().addingTimeInterval(timeLimit)
        do {
            try input.write(contentsOf: request)
        } catch {
            // Its input is closed: the helper ended before this request.
            kill()
            _ = process.waitForEnd()
            throw EndedBeforeReading()
        }
        var answer = Data()
        while true {
            guard let piece = readAnswer(until: deadline) else {
                if answer.isEmpty && !state.withLock({ $0.timedOut }) && hs_pipe_unread_bytes(input.fileDescriptor) == request.count {
                    kill()
                    _ = process.waitForEnd()
                    throw EndedBeforeReading()
                }
                throw failure(timeLimit: timeLimit)
            }
            answer.append(piece)
            if let end = answer.firstIndex(of: 0x0A) {
                // One request, one line, naming the request: anything else is a helper out of
                // step, whose answers cannot be trusted to belong to their uploads.
                let prefix = Data("\(id) ".utf8)
                guard end == answer.index(before: answer.endIndex), answer.starts(with: prefix) else {
                    throw failure(timeLimit: timeLimit, outOfStep: true)
                }
                return Data(answer[answer.startIndex + prefix.count..<end])
            }
            guard answer.count <= Self.maximumAnswerBytes else { throw failure(timeLimit: timeLimit) }
        }
    }

    /// Whether the helper wrote more than its answer (it is out of step).
    var hasUnaskedOutput: Bool {
        var waiting = pollfd(fd: output.fileDescriptor, events: Int16(POLLIN), revents: 0)
        return poll(&waiting, 1, 0) != 0
    }

    /// The next bytes of the answer; nil at its end, once the helper is gone (a process it
    /// left behind may hold the pipe open), or at `deadline`, when the helper is stopped.
    private func readAnswer(until deadline: Date) -> Data? {
        var waiting = pollfd(fd: output.fileDescriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else {
                state.withLock { $0.timedOut = true }
                kill()
                return nil
            }
            let ready = poll(&waiting, 1, Int32(min(200, max(1, left * 1000))))
            if ready > 0 { return Self.readSome(output) }
            if ready < 0 && errno != EINTR { return nil }
            if process.hasEnded { return nil }
        }
    }

    /// What the pipe holds now, waiting only until it holds something; nil at its end.
    /// (`FileHandle.read(upToCount:)` waits for the whole count.)
    static func readSome(_ handle: FileHandle) -> Data? {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { raw in read(handle.fileDescriptor, raw.baseAddress, raw.count) }
            if n < 0 && errno == EINTR { continue }
            return n > 0 ? Data(buffer[0..<n]) : nil
        }
    }

    /// Why the helper gave no answer, as `Isolation.run` words it.
    private func failure(timeLimit: Double, outOfStep: Bool = false) -> Isolation.Failure {
        kill()
        let end = process.waitForEnd()
        if outOfStep { return Isolation.Failure(description: "the inspect-upload process answered out of step and was stopped") }
        // The last words on standard error arrive with the pipe's end.
        let deadline = Date().addingTimeInterval(1)
        while !errorTail.withLock({ $0.ended }) && Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
        if state.withLock({ $0.timedOut }) {
            return Isolation.Failure(description: "the inspect-upload process ran longer than \(Int(timeLimit)) s and was stopped", timedOut: true)
        }
        let status: Int32
        switch end {
        case .signalled(let signal):
            // A runtime's message may quote the data it tripped on: only its kind.
            let fault = errorTail.withLock { $0.text }.range(of: Data("Fatal error".utf8)) != nil ? " (a fault in the program)" : ""
            return Isolation.Failure(description: "the inspect-upload process stopped by signal \(signal)\(fault)")
        case .exited(let code): status = code
        }
        // The helper's own words when it ends by its own choice; a runtime's fault message
        // may quote the data it tripped on, so only its kind.
        let text = errorTail.withLock { $0.text }
        let tail = text.range(of: Data("Fatal error".utf8)) != nil ? "a fault in the program" : Isolation.lastLine(text)
        return Isolation.Failure(
            description: "the inspect-upload process exited with \(status)\(tail.isEmpty ? "" : ": \(tail)")")
    }

    /// Stops the helper at once (a fault, a time limit, a client that hung up).
    func kill() {
        if !process.hasEnded { stopAtOnce(process.processIdentifier) }
    }

    /// Ends a helper that is not needed any more: its input closes and it exits.
    func retire() {
        let first = state.withLock { state in
            defer { state.retired = true }
            return !state.retired
        }
        guard first else { return }
        try? input.close()
        let process = self.process
        DispatchQueue.global().async {
            // A helper that does not end within a few seconds of its input closing is stopped.
            let deadline = Date().addingTimeInterval(5)
            while !process.hasEnded && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            if !process.hasEnded { stopAtOnce(process.processIdentifier) }
        }
    }
}

private func stopAtOnce(_ process: Int32) {
    kill(process, SIGKILL)
}

/// A thread that lives as long as the service and starts helpers: Linux's parent-death
/// signal, which ends a helper when the service ends, is sent when the helper's *starting
/// thread* ends, and the runtime's worker threads come and go.
final class SpawnerThread: @unchecked Sendable {
    private let condition = NSCondition()
    private var work: [() -> Void] = []
    private var stopped = false

    init() {
        let thread = Thread { [self] in loop() }
        thread.name = "helper spawner"
        thread.start()
    }

    private func loop() {
        while true {
            condition.lock()
            while work.isEmpty && !stopped { condition.wait() }
            if work.isEmpty && stopped {
                condition.unlock()
                return
            }
            let next = work.removeFirst()
            condition.unlock()
            next()
        }
    }

    /// Runs `body` on the spawner thread and returns its result; blocks the caller.
    func perform<T>(_ body: @escaping () throws -> T) throws -> T {
        let done = DispatchSemaphore(value: 0)
        var result: Result<T, any Error>?
        condition.lock()
        work.append {
            result = Result { try body() }
            done.signal()
        }
        condition.signal()
        condition.unlock()
        done.wait()
        guard let result else { throw Isolation.Failure(description: "the helper could not be started") }
        return try result.get()
    }

    func stop() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }
}
