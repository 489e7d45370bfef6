/// The speech policy on a phone, driven by the synthesizer itself rather than by guessed
/// durations: one phrase is handed to the voice at a time, and the next only when the voice
/// says it has finished. The rules are `SpeechScheduler`'s (milestones queue in order and are
/// never dropped; one instruction or reminder waits in a single slot that a newer one
/// replaces; the same instruction is not started again within `sameInstructionInterval`; a
/// waiting instruction is withdrawn when the position becomes ideal or the scan completes),
/// plus what a live scan needs: pausing keeps the milestones and drops the instructions, and
/// stopping silences an instruction being said, so nothing stale is heard after Stop.
public struct LiveSpeechQueue: Sendable {
    /// What the voice must do.
    public enum Action: Sendable, Equatable {
        /// Say this phrase now (the voice is idle).
        case say(Phrase, SpeechPriority)
        /// Stop the phrase being said at once.
        case silence
    }

    /// Minimum seconds between two starts of the same instruction or reminder.
    public let sameInstructionInterval: Double
    /// The phrase the voice is saying, if any.
    public private(set) var speaking: (phrase: Phrase, priority: SpeechPriority)?
    /// Whether the scan is paused or stopped: only milestones are said.
    public private(set) var holdingInstructions = false
    private var milestones: [Phrase] = []
    private var waiting: (phrase: Phrase, priority: SpeechPriority)?
    private var lastStart: [Phrase: Double] = [:]

    public init(sameInstructionInterval: Double = 2) {
        self.sameInstructionInterval = sameInstructionInterval
    }

    /// A guide event at `time`; returns what to say now, if anything.
    public mutating func handle(_ event: TimedFeedbackEvent) -> Action? {
        switch event.event {
        case .speak(let phrase, .milestone): milestones.append(phrase)
        case .speak(let phrase, let priority): if !holdingInstructions { waiting = (phrase, priority) }
        case .hapticStop: if waiting?.priority == .instruction { waiting = nil }
        case .completed: waiting = nil
        default: break
        }
        return next(at: event.time)
    }

    /// The voice finished (or was stopped) at `time`; returns the next phrase, if any.
    public mutating func finished(at time: Double) -> Action? {
        speaking = nil
        return next(at: time)
    }

    /// The scan paused: instructions are dropped, milestones kept; what is being said ends.
    public mutating func pause() {
        holdingInstructions = true
        waiting = nil
    }

    /// The scan resumed at `time`.
    public mutating func resume(at time: Double) -> Action? {
        holdingInstructions = false
        return next(at: time)
    }

    /// The scan stopped: no instruction is said any more; one being said is cut off. The
    /// milestones still queued ("done") are said.
    public mutating func stop() -> Action? {
        holdingInstructions = true
        waiting = nil
        guard let speaking, speaking.priority != .milestone else { return nil }
        return .silence
    }

    private mutating func next(at time: Double) -> Action? {
        guard speaking == nil else { return nil }
        if !milestones.isEmpty {
            let phrase = milestones.removeFirst()
            speaking = (phrase, .milestone)
            return .say(phrase, .milestone)
        }
        guard let candidate = waiting else { return nil }
        waiting = nil
        if let last = lastStart[candidate.phrase], time - last < sameInstructionInterval { return nil }
        lastStart[candidate.phrase] = time
        speaking = candidate
        return .say(candidate.phrase, candidate.priority)
    }
}
