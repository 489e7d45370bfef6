import AppModel
import AppSupport
import Foundation

/// A clock that returns from every sleep at once, advancing its time, and records the
/// sleeps: "after one second" happens at once in tests and previews.
public final class TestClock: AppClock, @unchecked Sendable {
    // A lock guards the time and the sleeps; the clock is shared like the real one.
    private let lock = NSLock()
    private var current: Date
    private var slept: [Double] = []
    /// Runs at the start of every sleep, to look at the state before the wait ends.
    public var onSleep: @MainActor (Double) -> Void = { _ in }

    /// A clock starting at `start` (2024-05-01T10:30:00Z unless given).
    public init(start: Date = Date(timeIntervalSince1970: 1_714_559_400)) { current = start }

    public func now() -> Date { lock.withLock { current } }

    /// Every sleep so far, seconds.
    public var sleeps: [Double] { lock.withLock { slept } }

    public func sleep(seconds: Double) async throws {
        await onSleep(seconds)
        lock.withLock {
            slept.append(seconds)
            current += seconds
        }
    }
}
