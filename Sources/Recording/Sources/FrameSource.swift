/// Anything that delivers RGB-D frames one after another: the live camera, a simulator,
/// a recording being replayed, an imported dataset.
///
/// Scanning, replay and the command line all consume frames through this one protocol, so
/// the same feedback and reconstruction code runs on each.
public protocol FrameSource: AnyObject, Sendable {
    /// The next frame, or nil when the source has no more.
    func nextFrame() async throws -> RGBDFrame?
}

/// Time as a replay sees it: how long since it started, and a way to wait.
///
/// Replays take this as a parameter so tests can run them against a manual clock and
/// check the pacing without waiting.
public struct ReplayClock: Sendable {
    /// Time elapsed since the clock was made.
    public var elapsed: @Sendable () -> Duration
    /// Suspends for a while (cancellation ends the wait with an error).
    public var sleep: @Sendable (Duration) async throws -> Void

    /// A clock from its two operations.
    public init(elapsed: @escaping @Sendable () -> Duration, sleep: @escaping @Sendable (Duration) async throws -> Void) {
        self.elapsed = elapsed
        self.sleep = sleep
    }

    /// Real time, from `ContinuousClock`.
    public static func continuous() -> ReplayClock {
        let clock = ContinuousClock()
        let start = clock.now
        return ReplayClock(
            elapsed: { clock.now - start },
            sleep: { try await clock.sleep(for: $0) })
    }
}
