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

/// Runs bcrypt on threads of its own, a bounded number at once, so that a crowd of wrong
/// passwords never stalls other requests; and checks unknown accounts against a stand-in hash
/// so that their answer takes as long as a known account's.
final class PasswordChecks: Sendable {
    private let queue = DispatchQueue(label: "headscan.bcrypt", attributes: .concurrent)
    private let permits: DispatchSemaphore
    private let waiting = Locked(0)
    private let maximumWaiting: Int
    private let standIn: Locked<String?> = Locked(nil)
    private let cost: UInt8
    /// (hash, password) pairs that verified in the last minute, keyed by a SHA-256 of both.
    private let recent = VerifiedCredentials()
    /// bcrypt checks run so far (tests see that unknown accounts cost one too).
    let performed = Locked(0)

    init(policy: SignInPolicy) {
        permits = DispatchSemaphore(value: policy.concurrentChecks)
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
            queue.async { [permits, performed] in
                permits.wait()
                defer { permits.signal() }
                performed.withLock { $0 += 1 }
                let target = hash ?? standIn.withLock { stored in
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
    /// The researcher with this e-mail and password, or nil. Refuses with 429 while the account
    /// or the address has failed too often; records and logs every failure.
    func verify(email: String, password: String, address: String) async throws -> Researcher? {
        let email = email.lowercased()
        let plausible = (3...200).contains(email.utf8.count) && (1...200).contains(password.utf8.count)
        let researcher = plausible ? try await store.researcher(email: email) : nil
        // A password that verified within the last minute: an API client's every request.
        if let researcher, passwordChecks.recentlyVerified(password, hash: researcher.passwordHash) { return researcher }
        let accountKey = "account:" + email, addressKey = "address:" + address
        let window = Self.now() - signInPolicy.window
        for (key, limit) in [(accountKey, signInPolicy.accountFailures), (addressKey, signInPolicy.addressFailures)] {
            let (count, oldest) = try await store.signInFailures(subject: key, since: window)
            if count >= limit {
                let wait = max(1, Int((oldest ?? Self.now()) + signInPolicy.window - Self.now()))
                try await store.audit(AuditEntry(actor: "researcher:" + email.prefix(200), action: "sign-in-throttled", address: address))
                var error = APIError(.tooManyRequests, "too many wrong passwords; try again in \(wait / 60 + 1) minutes")
                error.headers[.retryAfter] = String(wait)
                throw error
            }
        }
        // Unknown addresses are checked against a stand-in hash: the same time as a known one.
        let ok = plausible ? try await passwordChecks.verify(password, hash: researcher?.passwordHash) : false
        guard ok, let researcher else {
            try await store.recordSignInFailure(subjects: [accountKey, addressKey], window: signInPolicy.window)
            try await store.audit(AuditEntry(actor: "researcher:" + email.prefix(200), action: "sign-in-failed", address: address))
            logger.warning("failed sign-in for \(email.prefix(200)) from \(address)")
            return nil
        }
        try await store.clearSignInFailures(subject: accountKey)
        return researcher
    }

    static func now() -> Double { Date().timeIntervalSince1970 }
}

extension Store {
    /// Failures recorded for `subject` since `since`, and the oldest of them.
    func signInFailures(subject: String, since: Double) async throws -> (count: Int, oldest: Double?) {
        let row = try await database.query(
            "SELECT COUNT(*) AS n, MIN(at) AS oldest FROM sign_in_failures WHERE subject = ? AND at > ?", [.text(subject), .double(since)]).first
        return (Int(row?["n"].int ?? 0), row?["oldest"].double)
    }

    func recordSignInFailure(subjects: [String], window: Double) async throws {
        let now = Self.now()
        _ = try await database.transaction(
            [SQLStatement("DELETE FROM sign_in_failures WHERE at < ?", [.double(now - window)])]
                + subjects.map { SQLStatement("INSERT INTO sign_in_failures (subject, at) VALUES (?, ?)", [.text($0), .double(now)]) })
    }

    func clearSignInFailures(subject: String) async throws {
        _ = try await database.query("DELETE FROM sign_in_failures WHERE subject = ?", [.text(subject)])
    }
}
