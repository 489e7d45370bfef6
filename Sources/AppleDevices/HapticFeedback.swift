#if os(iOS)
import AudioToolbox
import CoreHaptics
import Feedback
import Foundation

/// The continuous "position not ideal" vibration.
///
/// A CoreHaptics continuous pattern plays from `start()` until `stop()`, which ends it at once.
/// When the system stops or resets the engine (audio interruptions, the app going to the
/// background) while the guide still wants the vibration, it plays again at once, or at the
/// guide's next request if the engine cannot start yet (`VibrationState` decides). Where
/// CoreHaptics is unsupported the phone's vibration sound repeats instead.
public final class HapticFeedback: @unchecked Sendable {
    private let lock = NSLock()
    private var engine: CHHapticEngine?
    private var player: CHHapticAdvancedPatternPlayer?
    private var state = VibrationState()
    private var fallbackTimer: DispatchSourceTimer?
    private let supportsHaptics: Bool
    private let queue = DispatchQueue(label: "HeadScan.HapticFeedback")

    /// A vibration; the engine starts with the first `start()`.
    public init() {
        supportsHaptics = CHHapticEngine.capabilitiesForHardware().supportsHaptics
    }

    /// Whether the vibration is playing.
    public var isPlaying: Bool { lock.withLock { state.playing } }

    /// Starts the continuous vibration (nothing when it already plays).
    public func start() {
        guard lock.withLock({ state.start() }) == .play else { return }
        play()
    }

    /// Stops the vibration at once.
    public func stop() {
        _ = lock.withLock { state.stop() }
        silenceHardware()
    }

    /// How long the alarm pattern lasts (seconds).
    static let alarmSeconds = 1.2

    /// Plays the alarm: two bursts of three hard taps, unlike the continuous "position"
    /// vibration, which pauses meanwhile and comes back afterwards if the guide still wants it.
    public func alarm() {
        if lock.withLock({ state.alarmStarted() }) == .silence { silenceHardware() }
        if supportsHaptics, (try? startAlarmPattern()) != nil {
            // Played by the engine.
        } else {
            AudioServicesPlaySystemSound(kSystemSoundID_Vibrate)
            queue.asyncAfter(deadline: .now() + 0.6) { AudioServicesPlaySystemSound(kSystemSoundID_Vibrate) }
        }
        queue.asyncAfter(deadline: .now() + Self.alarmSeconds) { [weak self] in
            guard let self, self.lock.withLock({ self.state.alarmEnded() }) == .play else { return }
            self.play()
        }
    }

    private func startAlarmPattern() throws {
        let engine = try makeEngine()
        try engine.start()
        let taps = [0.0, 0.12, 0.24, 0.6, 0.72, 0.84].map { time in
            CHHapticEvent(
                eventType: .hapticTransient,
                parameters: [
                    CHHapticEventParameter(parameterID: .hapticIntensity, value: 1),
                    CHHapticEventParameter(parameterID: .hapticSharpness, value: 1),
                ],
                relativeTime: time)
        }
        let player = try engine.makePlayer(with: CHHapticPattern(events: taps, parameters: []))
        try player.start(atTime: CHHapticTimeImmediate)
    }

    /// Vibrates for `seconds` (the demonstration on the instructions screen).
    public func pulse(seconds: Double = 1) {
        start()
        queue.asyncAfter(deadline: .now() + seconds) { [weak self] in self?.stop() }
    }

    private func play() {
        // Whatever is left of an earlier pattern or fallback goes first: one vibration at a time.
        silenceHardware()
        if supportsHaptics {
            do {
                try startPattern()
            } catch {
                startFallback()
            }
        } else {
            startFallback()
        }
        if lock.withLock({ state.didPlay() }) == .silence { silenceHardware() }
    }

    private func silenceHardware() {
        let (player, timer) = lock.withLock { () -> (CHHapticAdvancedPatternPlayer?, DispatchSourceTimer?) in
            defer { fallbackTimer = nil }
            return (self.player, fallbackTimer)
        }
        try? player?.stop(atTime: CHHapticTimeImmediate)
        timer?.cancel()
    }

    /// The system stopped or reset the engine: what played is gone; play again if wanted.
    private func engineStopped() {
        let action = lock.withLock { () -> VibrationState.Action in
            player = nil
            return state.engineStopped()
        }
        guard action == .play else { return }
        queue.async { [weak self] in self?.play() }
    }

    private func makeEngine() throws -> CHHapticEngine {
        if let engine = lock.withLock({ self.engine }) { return engine }
        let engine = try CHHapticEngine()
        engine.playsHapticsOnly = true
        engine.isAutoShutdownEnabled = false
        engine.stoppedHandler = { [weak self] _ in self?.engineStopped() }
        engine.resetHandler = { [weak self] in self?.engineStopped() }
        lock.withLock { self.engine = engine }
        return engine
    }

    private func startPattern() throws {
        let engine = try makeEngine()
        try engine.start()
        let event = CHHapticEvent(
            eventType: .hapticContinuous,
            parameters: [
                CHHapticEventParameter(parameterID: .hapticIntensity, value: 0.8),
                CHHapticEventParameter(parameterID: .hapticSharpness, value: 0.4),
            ],
            relativeTime: 0, duration: 30)
        let pattern = try CHHapticPattern(events: [event], parameters: [])
        let player = try engine.makeAdvancedPlayer(with: pattern)
        player.loopEnabled = true
        lock.withLock { self.player = player }
        try player.start(atTime: CHHapticTimeImmediate)
    }

    private func startFallback() {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now(), repeating: 0.5)
        timer.setEventHandler { AudioServicesPlaySystemSound(kSystemSoundID_Vibrate) }
        lock.withLock { fallbackTimer = timer }
        timer.resume()
    }
}

/// The guide's vibration events on the phone: on at `hapticStart`, off at `hapticStop`, at
/// completion and at the end.
public struct HapticSink: FeedbackSink {
    /// The vibration played.
    public let haptics: HapticFeedback

    /// A sink vibrating with `haptics`.
    public init(haptics: HapticFeedback) { self.haptics = haptics }

    public mutating func receive(_ event: TimedFeedbackEvent) {
        switch event.event {
        case .hapticStart: haptics.start()
        case .hapticStop, .completed: haptics.stop()
        default: break
        }
    }

    public mutating func finish(at time: Double) { haptics.stop() }
}
#endif
