import Foundation

/// The time source of the models, so that tests can run "after one second" at once.
public protocol AppClock: Sendable {
    /// The current date.
    func now() -> Date
    /// Waits `seconds`.
    func sleep(seconds: Double) async throws
}

/// The real clock.
public struct SystemClock: AppClock {
    /// The system clock.
    public init() {}
    public func now() -> Date { Date() }
    public func sleep(seconds: Double) async throws { try await Task.sleep(for: .seconds(seconds)) }
}
