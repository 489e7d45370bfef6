/// Keeps the phone working while a scan is measured: the screen stays awake, and if the app
/// goes to the background it asks for time to finish. The device layer does it on iOS.
@MainActor
public protocol ProcessingActivity: AnyObject {
    /// A measurement started.
    func begin()
    /// The measurement ended (measured, failed or cancelled).
    func end()
}

/// No device to keep awake (Linux, tests that do not care).
@MainActor
public final class NoProcessingActivity: ProcessingActivity {
    nonisolated public init() {}
    public func begin() {}
    public func end() {}
}

/// The sessions being measured: one job per session, so that a results screen opened again
/// while a cancelled job is still winding down does not start a second one over the same
/// files.
@MainActor
public final class ProcessingJobs {
    private var running: Set<String> = []

    public init() {}

    /// Claims `session`; false when a job for it is running.
    func begin(_ session: String) -> Bool { running.insert(session).inserted }

    /// Releases `session`.
    func end(_ session: String) { running.remove(session) }

    /// Whether a job for `session` is running.
    public func isRunning(_ session: String) -> Bool { running.contains(session) }
}

/// Dims the phone's screen while recording: the screen faces the infant, and a bright one
/// distracts them. The device layer sets the brightness on iOS and restores it afterwards.
@MainActor
public protocol ScreenDimmer: AnyObject {
    /// Recording started or resumed.
    func dim()
    /// Recording paused or ended: the brightness the user had.
    func restore()
}

/// No screen to dim (Linux, tests that do not care).
@MainActor
public final class NoScreenDimmer: ScreenDimmer {
    nonisolated public init() {}
    public func dim() {}
    public func restore() {}
}
