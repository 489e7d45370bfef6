import Foundation
import HTTPTypes
import HeadScanTesting
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import Upload

@testable import HeadScanServer

/// Sign-in that gives nothing away and cannot be hammered, and accounts and devices that can be
/// revoked at once.
@Suite struct AccountTests {
    /// A harness whose sign-in policy hashes at `cost` like its researchers.
    static func harness(_ backend: Backend, _ change: (inout SignInPolicy) -> Void = { _ in }) async throws -> Harness {
        let made = try await Harness.make(backend)
        var server = made.server
        var policy = SignInPolicy()
        policy.cost = 4
        change(&policy)
        server.signInPolicy = policy
        return Harness(server: server, data: made.data, schema: made.schema)
    }

    @Test(arguments: Backend.available)
    func unknownAddressesCostABcryptCheckLikeKnownOnes(_ backend: Backend) async throws {
        let harness = try await Self.harness(backend)
        defer { Task { await harness.close() } }
        _ = try await harness.researcher("known@example.org")
        try await harness.app().test(.router) { client in
            let checks = harness.server.passwordChecks.performed
            for email in ["known@example.org", "unknown@example.org"] {
                let before = checks.withLock { $0 }
                let answer = try await client.execute(uri: "/api/sessions", method: .get, headers: basic(email, "wrong password"))
                #expect(answer.status == .unauthorized)
                #expect(String(buffer: answer.body).contains("the e-mail address or the password is wrong"))
                #expect(checks.withLock { $0 } == before + 1, "\(email): one bcrypt check")
            }
        }
    }

    @Test(arguments: Backend.available)
    func wrongPasswordsLockTheAccountAndTheAddressAndAreLogged(_ backend: Backend) async throws {
        let harness = try await Self.harness(backend)
        defer { Task { await harness.close() } }
        let password = try await harness.researcher("r@example.org")
        try await harness.app().test(.router) { client in
            for _ in 0..<5 {
                #expect(
                    try await client.execute(uri: "/api/sessions", method: .get, headers: basic("r@example.org", "guess")).status == .unauthorized)
            }
            // Now even the right password waits, and says how long.
            let locked = try await client.execute(uri: "/api/sessions", method: .get, headers: basic("r@example.org", password))
            #expect(locked.status == .tooManyRequests)
            #expect(Int(locked.headers[.retryAfter] ?? "") ?? 0 > 60)
            let actions = try await harness.auditActions()
            #expect(actions.filter { $0 == "sign-in-failed" }.count == 5 && actions.contains("sign-in-throttled"))
            // One address trying many accounts is stopped too.
            for index in 0..<20 {
                _ = try await client.execute(uri: "/api/sessions", method: .get, headers: basic("someone\(index)@example.org", "guess"))
            }
            let other = try await client.execute(uri: "/api/sessions", method: .get, headers: basic("third@example.org", "guess"))
            #expect(other.status == .tooManyRequests)
        }
        // A success clears the account's count.
        try await harness.store.signInAttempts.clear(subject: "address:unknown")
        try await harness.store.signInAttempts.clear(subject: "account:r@example.org")
        try await harness.store.signInAttempts.clear(subject: "pair:r@example.org unknown")
        try await harness.app().test(.router) { client in
            let status = try await client.execute(uri: "/api/sessions", method: .get, headers: basic("r@example.org", password)).status
            #expect(status == .ok)
        }
    }

    @Test func aCrowdOfSignInsWaitsInABoundedQueue() async throws {
        let harness = try await Self.harness(.sqlite) { policy in
            policy.cost = 10
            policy.concurrentChecks = 1
            policy.waitingChecks = 2
            policy.accountFailures = 1000
            policy.addressFailures = 1000
        }
        defer { Task { await harness.close() } }
        _ = try await harness.researcher("r@example.org")
        try await harness.app().test(.router) { client in
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<12 {
                    group.addTask { try await client.execute(uri: "/api/sessions", method: .get, headers: basic("r@example.org", "wrong")).status }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.allSatisfy { $0 == .unauthorized || $0 == .serviceUnavailable })
            #expect(statuses.contains(.serviceUnavailable), "\(statuses)")
            #expect(harness.server.passwordChecks.performed.withLock { $0 } <= 12)
        }
    }

    @Test(arguments: Backend.available)
    func revokedRotatedAndExpiredTokensFailAtOnce(_ backend: Backend) async throws {
        let harness = try await Harness.make(backend)
        defer { Task { await harness.close() } }
        let (_, lost) = try await harness.device("lost-phone")
        let (_, rotating) = try await harness.device("rotating-phone")
        let (_, expired) = try await harness.store.devices.add(name: "old-phone", site: "clinic-a", expiresAt: Date().addingTimeInterval(-1))
        try await harness.app().test(.router) { client in
            func status(_ token: String) async throws -> HTTPResponse.Status {
                try await client.execute(uri: "/api/sessions", method: .get, headers: bearer(token)).status
            }
            #expect(try await status(lost) == .ok)
            try await harness.store.devices.revoke(name: "lost-phone")
            #expect(try await status(lost) == .unauthorized)
            let fresh = try await harness.store.devices.rotate(name: "rotating-phone")
            #expect(try await status(rotating) == .unauthorized)
            #expect(try await status(fresh) == .ok)
            #expect(try await status(expired) == .unauthorized)
            await #expect(throws: DatabaseError.self) { try await harness.store.devices.rotate(name: "lost-phone") }
        }
        let states = try await harness.store.devices.all().map { "\($0.name) \($0.state)" }
        #expect(states == ["lost-phone revoked", "old-phone expired", "rotating-phone active"])
    }

    @Test(arguments: Backend.available)
    func removedResearchersAndChangedPasswordsAreSignedOutEverywhere(_ backend: Backend) async throws {
        let harness = try await Harness.make(backend)
        defer { Task { await harness.close() } }
        let password = try await harness.researcher("a@example.org")
        let other = try await harness.researcher("b@example.org")
        try await harness.app().test(.router) { client in
            let cookieA = try await Self.signIn(client, "a@example.org", password)
            let cookieB = try await Self.signIn(client, "b@example.org", other)
            #expect(try await client.execute(uri: "/api/sessions", method: .get, headers: [.cookie: cookieA]).status == .ok)

            try await harness.store.researchers.setPassword(email: "a@example.org", password: "a new long password", cost: 4)
            #expect(try await client.execute(uri: "/api/sessions", method: .get, headers: [.cookie: cookieA]).status == .unauthorized)
            #expect(try await client.execute(uri: "/api/sessions", method: .get, headers: basic("a@example.org", password)).status == .unauthorized)
            #expect(
                try await client.execute(uri: "/api/sessions", method: .get, headers: basic("a@example.org", "a new long password")).status == .ok)

            try await harness.store.researchers.remove(email: "b@example.org")
            #expect(try await client.execute(uri: "/api/sessions", method: .get, headers: [.cookie: cookieB]).status == .unauthorized)
            #expect(try await client.execute(uri: "/api/sessions", method: .get, headers: basic("b@example.org", other)).status == .unauthorized)
        }
        #expect(try await harness.store.researchers.all().map(\.email) == ["a@example.org"])
    }

    /// Signs in through the page; returns the session cookie.
    static func signIn(_ client: some TestClientProtocol, _ email: String, _ password: String) async throws -> String {
        let form = try await FormSession.open(client)
        let body =
            "email=\(email.replacingOccurrences(of: "@", with: "%40"))&password=\(password.replacingOccurrences(of: " ", with: "+"))&csrf=\(form.token)"
        let login = try await client.execute(uri: "/login", method: .post, headers: form.headers, body: ByteBuffer(string: body))
        return try #require(login.headers[.setCookie]?.split(separator: ";").first.map(String.init))
    }
}
