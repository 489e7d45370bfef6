/// What the vibration should do, apart from the hardware that does it. The guide wants the
/// vibration on or off; the haptic engine may stop on its own (an audio interruption, the app
/// in the background, a reset). In this product silence means "position fine", so a vibration
/// the guide still wants must come back as soon as the engine can play again; wanting and
/// playing are therefore kept apart.
public struct VibrationState: Sendable, Equatable {
    /// What the device layer must do next.
    public enum Action: Sendable, Equatable {
        /// Start the engine if needed and play the pattern.
        case play
        /// Stop the pattern now.
        case silence
        case nothing
    }

    /// The guide wants the vibration on.
    public private(set) var wanted = false
    /// A pattern is playing, as far as the device layer knows.
    public private(set) var playing = false
    /// The alarm pattern (the camera or the disk failed) has the vibration motor; the
    /// continuous pattern waits until it is over so that the two cannot be confused.
    public private(set) var alarming = false

    public init() {}

    /// The guide asks for the vibration.
    public mutating func start() -> Action {
        wanted = true
        return playing || alarming ? .nothing : .play
    }

    /// The guide asks for silence.
    public mutating func stop() -> Action {
        wanted = false
        defer { playing = false }
        return playing ? .silence : .nothing
    }

    /// The pattern started. Returns `.silence` when the guide asked for silence meanwhile.
    public mutating func didPlay() -> Action {
        playing = wanted
        return wanted ? .nothing : .silence
    }

    /// Playing failed (the engine could not start, the app is in the background): the next
    /// `start`, or the engine coming back, tries again.
    public mutating func playFailed() { playing = false }

    /// The engine stopped or was reset by the system: whatever played is gone. Returns `.play`
    /// when the guide still wants the vibration.
    public mutating func engineStopped() -> Action {
        playing = false
        return wanted && !alarming ? .play : .nothing
    }

    /// The alarm pattern starts: the continuous one, if it plays, must stop first.
    public mutating func alarmStarted() -> Action {
        alarming = true
        defer { playing = false }
        return playing ? .silence : .nothing
    }

    /// The alarm pattern is over: the continuous one comes back when the guide still wants it.
    public mutating func alarmEnded() -> Action {
        alarming = false
        return wanted && !playing ? .play : .nothing
    }
}
