/// One scheduled utterance.
public struct Utterance: Sendable, Equatable {
    /// When it starts and ends, seconds on the scan's clock.
    public var start: Double
    public var end: Double
    public var phrase: Phrase
    public var priority: SpeechPriority
    /// When the guide asked for it.
    public var requested: Double
}

/// The speech policy: one voice, never piling up.
///
/// An utterance is never cut off. While one plays, milestones (progress, done) queue in order
/// and are never dropped; an instruction or reminder waits in a single slot that a newer one
/// replaces, so the operator never hears a backlog of stale directions. Milestones go first.
/// The same instruction is not started again within `sameInstructionInterval` of its last
/// start, and a pending instruction is withdrawn when the position becomes ideal or the scan
/// completes.
public struct SpeechScheduler: Sendable {
    /// Minimum seconds between two starts of the same instruction or reminder.
    public let sameInstructionInterval: Double
    private let duration: @Sendable (Phrase) -> Double
    private var busyUntil = -Double.infinity
    private var milestones: [(phrase: Phrase, time: Double)] = []
    private var pending: (phrase: Phrase, priority: SpeechPriority, time: Double)?
    private var lastStart: [Phrase: Double] = [:]

    /// A scheduler; `duration` tells how long a phrase takes to say, in seconds.
    public init(sameInstructionInterval: Double = 2, duration: @escaping @Sendable (Phrase) -> Double) {
        self.sameInstructionInterval = sameInstructionInterval
        self.duration = duration
    }

    /// A duration estimate from the phrase's text: espeak-ng's default 175 words per minute
    /// is about 14 characters a second, plus a short lead-in.
    public static func estimatedDuration(_ phrasebook: Phrasebook) -> @Sendable (Phrase) -> Double {
        { 0.2 + Double(phrasebook.text($0).count) / 14 }
    }

    /// Takes one event in time order; returns the utterances that start up to its time.
    public mutating func handle(_ event: TimedFeedbackEvent) -> [Utterance] {
        var started = advance(to: event.time)
        switch event.event {
        case .speak(let phrase, .milestone): milestones.append((phrase, event.time))
        case .speak(let phrase, let priority): pending = (phrase, priority, event.time)
        case .hapticStop:
            if pending?.priority == .instruction { pending = nil }
        case .completed:
            pending = nil
        default: break
        }
        started += advance(to: event.time)
        return started
    }

    /// Plays out everything still queued.
    public mutating func finish() -> [Utterance] {
        advance(to: .infinity)
    }

    private mutating func advance(to time: Double) -> [Utterance] {
        var started: [Utterance] = []
        while busyUntil <= time {
            let next: (phrase: Phrase, priority: SpeechPriority, time: Double)
            if !milestones.isEmpty {
                let m = milestones.removeFirst()
                next = (m.phrase, .milestone, m.time)
            } else if let p = pending {
                pending = nil
                next = p
            } else {
                break
            }
            let start = max(busyUntil, next.time)
            if next.priority != .milestone, let last = lastStart[next.phrase], start - last < sameInstructionInterval {
                continue
            }
            lastStart[next.phrase] = start
            let end = start + duration(next.phrase)
            busyUntil = end
            started.append(Utterance(start: start, end: end, phrase: next.phrase, priority: next.priority, requested: next.time))
        }
        return started
    }
}
