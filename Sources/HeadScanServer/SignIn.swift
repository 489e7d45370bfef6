import Foundation
import HummingbirdBcrypt
import Logging

/// How many wrong passwords the service accepts before it makes an account or an address wait.
public struct SignInPolicy: Sendable {
    /// Failures per account within `window` before it waits.
    public var accountFailures = 5
    /// Failures per client address within `window` before it waits.
    public var addressFailures = 20
    /// Seconds failures are counted over; a locked account opens again when its oldest failure
    /// in the window is this old.
    public var window: Double = 15 * 60
    /// bcrypt checks at once (each takes a core for about 0.3 s at cost 12).
    public var concurrentChecks = max(1, ProcessInfo.processInfo.activeProcessorCount - 1)
    /// Checks waiting for a core before new sign-ins are told to come back (503).
    public var waitingChecks = 32
    /// bcrypt cost of the stand-in hash checked for unknown addresses, so they take as long as
    /// known ones; the same cost new passwords are hashed with.
    public var cost: UInt8 = 12

    public init() {}
}

/// A fixed number of threads of their own that run queued blocking jobs in order. bcrypt takes
/// a core for a third of a second: on Dispatch's queues (which Swift's concurrency runtime uses
/// on Linux) a crowd of checks held up every other request for seconds.
final class WorkerThreads: Sendable {
    private let condition = NSCondition()
    private let jobs = Locked<[@Sendable () -> Void]>([])

    init(count: Int, name: String) {
        for index in 0..<max(1, count) {
            let thread = Thread { [self] in work() }
            thread.name = "\(name)-\(index)"
            thread.start()
        }
    }

    func submit(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.withLock { $0.append(job) }
        condition.signal()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            var job = jobs.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            while job == nil {
                condition.wait()
                job = jobs.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            }
            condition.unlock()
            job?()
        }
    }
}

/// Runs bcrypt on threads of its own, a bounded number at once, so that a crowd of wrong
/// passwords never stalls other requests; and checks unknown accounts against a stand-in hash
/// so that their answer takes as long as a known account's.
final class PasswordChecks: Sendable {
    private let threads: WorkerThreads
    private let waiting = Locked(0)
    private let maximumWaiting: Int
    private let standIn: Locked<String?> = Locked(nil)
    private let cost: UInt8
    /// (hash, password) pairs that verified in the last minute, keyed by a SHA-256 of both.
    private let recent = VerifiedCredentials()
    /// bcrypt checks run so far (tests see that unknown accounts cost one too).
    let performed = Locked(0)

    init(policy: SignInPolicy) {
        threads = WorkerThreads(count: policy.concurrentChecks, name: "bcrypt")
        maximumWaiting = policy.waitingChecks
        cost = policy.cost
    }

    /// Whether this password verified against this hash within the last minute.
    func recentlyVerified(_ password: String, hash: String) -> Bool { recent.contains(password, hash: hash) }

    /// Whether `password` matches `hash`; nil `hash` (no such account) checks the stand-in and
    /// answers false. Throws 503 when too many checks wait.
    func verify(_ password: String, hash: String?) async throws(APIError) -> Bool {
        if let hash, recent.contains(password, hash: hash) { return true }
        let admitted = waiting.withLock { count -> Bool in
            guard count < maximumWaiting else { return false }
            count += 1
            return true
        }
        guard admitted else {
            var error = APIError(.serviceUnavailable, "too many sign-ins at once; try again in a few seconds")
            error.headers[.retryAfter] = "5"
            throw error
        }
        defer { waiting.withLock { $0 -= 1 } }
        let standIn = self.standIn
        let cost = self.cost
        let ok = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            threads.submit { [performed] in
                performed.withLock { $0 += 1 }
                let target =
                    hash
                    ?? standIn.withLock { stored in
                        if let stored { return stored }
                        let made = Bcrypt.hash(UUID().uuidString, cost: cost)
                        stored = made
                        return made
                    }
                continuation.resume(returning: Bcrypt.verify(password, hash: target) && hash != nil)
            }
        }
        if ok, let hash { recent.remember(password, hash: hash) }
        return ok
    }
}

extension ResearchServer {
    /// The researcher with this e-mail and password, or nil. Each attempt is counted before its
    /// password is checked (so a crowd of concurrent guesses gets no more checks than the limit):
    /// per account and address first, then per address, and per account from every address with
    /// a limit ten times higher, so that one guesser does not lock the owner out. Refuses with
    /// 429 and how long to wait; records every failure.
    func verify(email: String, password: String, address: String) async throws -> Researcher? {
        let email = email.lowercased()
        let plausible = (3...200).contains(email.utf8.count) && (1...200).contains(password.utf8.count)
        let researcher = plausible ? try await store.researchers.find(email: email) : nil
        // A password that verified within the last minute: an API client's every request.
        if let researcher, passwordChecks.recentlyVerified(password, hash: researcher.passwordHash) { return researcher }
        let keys = SignInKeys(email: email, address: address)
        let limits = [
            (keys.pair, signInPolicy.accountFailures), (keys.address, signInPolicy.addressFailures),
            (keys.account, signInPolicy.accountFailures * 10),
        ]
        // The audit names a known account; an address no account has stays a digest.
        let actor = researcher.map { "researcher:" + $0.email } ?? "unknown-account:" + LogText.digest(email)
        let attempt = try await store.signInAttempts.record(subjects: limits.map(\.0), window: signInPolicy.window)
        let since = Self.now() - signInPolicy.window
        for (key, limit) in limits {
            let (count, oldest) = try await store.signInAttempts.failures(subject: key, since: since)
            if count > limit {
                let wait = max(1, Int((oldest ?? Self.now()) + signInPolicy.window - Self.now()))
                try await store.audit(AuditEntry(actor: actor, action: "sign-in-throttled", address: address))
                var error = APIError(.tooManyRequests, "too many wrong passwords; try again in \(wait / 60 + 1) minutes")
                error.headers[.retryAfter] = String(wait)
                throw error
            }
        }
        // Unknown addresses are checked against a stand-in hash: the same time as a known one.
        let ok: Bool
        do {
            ok = plausible ? try await passwordChecks.verify(password, hash: researcher?.passwordHash) : false
        } catch {
            try await store.signInAttempts.forget(attempt, subjects: limits.map(\.0))
            throw error
        }
        guard ok, let researcher else {
            try await store.audit(AuditEntry(actor: actor, action: "sign-in-failed", address: address))
            logger.warning("failed sign-in for \(actor) from \(LogText.label(address))")
            return nil
        }
        try await store.signInAttempts.forget(attempt, subjects: [keys.address, keys.account])
        try await store.signInAttempts.clear(subject: keys.pair)
        return researcher
    }

    static func now() -> Double { Date().timeIntervalSince1970 }
}

/// The subjects sign-in attempts are counted under.
struct SignInKeys {
    var email: String
    var client: String
    init(email: String, address: String) {
        self.email = email
        self.client = address
    }
    var pair: String { "pair:" + email + " " + client }
    var account: String { "account:" + email }
    var address: String { "address:" + client }
}
