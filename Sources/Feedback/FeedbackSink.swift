import Foundation

/// Something that turns feedback events into vibration, speech, pixels or text. Live
/// scanning, replay and the command line differ only in their sinks.
public protocol FeedbackSink {
    /// Takes one event, in time order.
    mutating func receive(_ event: TimedFeedbackEvent)
    /// The scan ended at `time`.
    mutating func finish(at time: Double)
}

/// Prints a readable timeline: one line per event, speech with its words.
public struct ConsoleSink: FeedbackSink {
    private let phrasebook: Phrasebook
    private let write: (String) -> Void

    /// A sink that hands each line (with its newline) to `write`.
    public init(phrasebook: Phrasebook, write: @escaping (String) -> Void = { print($0, terminator: "") }) {
        self.phrasebook = phrasebook
        self.write = write
    }

    public mutating func receive(_ event: TimedFeedbackEvent) {
        write(Self.timestamp(event.time) + "  " + describe(event.event) + "\n")
    }

    public mutating func finish(at time: Double) {
        write(Self.timestamp(time) + "  end of scan\n")
    }

    /// The event in words.
    public func describe(_ event: FeedbackEvent) -> String {
        switch event {
        case .hapticStart: "vibration on"
        case .hapticStop: "vibration off"
        case .speak(let phrase, let priority): "say \"\(phrasebook.text(phrase))\" (\(priority.rawValue))"
        case .progressColourChanged(let c): "progress bar \(c.rawValue)"
        case .milestone(let p): "milestone \(p) %"
        case .completed(let missing):
            missing.isEmpty ? "completed" : "completed, \(missing.count) markers missing: \(missing.map(String.init).joined(separator: " "))"
        case .reminder(let f): "reminder: \(f.map(\.rawValue).joined(separator: ", ")) not yet in the picture"
        }
    }

    private static func timestamp(_ t: Double) -> String { String(format: "%8.2f s", t) }
}

/// Collects the speech a scan would produce under the scheduling policy.
public struct SpeechSink: FeedbackSink {
    /// The utterances so far, in start order.
    public private(set) var utterances: [Utterance] = []
    private var scheduler: SpeechScheduler

    /// A sink scheduling with `scheduler`.
    public init(scheduler: SpeechScheduler) { self.scheduler = scheduler }

    public mutating func receive(_ event: TimedFeedbackEvent) {
        utterances += scheduler.handle(event)
    }

    public mutating func finish(at time: Double) {
        utterances += scheduler.finish()
    }
}

/// What a scan looked like to the guide: time in each position class, milestones,
/// completion. Fed frame by frame.
public struct GuideSummary: Sendable, Codable {
    /// Frames seen.
    public var frames = 0
    /// Seconds from the first to the last frame.
    public var duration = 0.0
    /// Seconds in each published class (a frame lasts until the next one).
    public var publishedSeconds: [String: Double] = [:]
    /// Seconds in each raw class.
    public var rawSeconds: [String: Double] = [:]
    /// Seconds from the start to each milestone, keyed by percent (JSON: {"25": 4.1, …}).
    public var milestoneSeconds: [Int: Double] = [:]
    /// Seconds to completion, nil when the scan never completed.
    public var completedSeconds: Double?
    /// Cap markers never seen.
    public var missingMarkers: [Int] = []
    /// Final progress, percent.
    public var progressPercent = 0
    /// Regions covered at the end.
    public var regionsCovered: [String] = []
    /// Ears and face seen in the picture.
    public var featuresSeen: [String] = []
    /// True when the guide followed the head's surface (no markers): `progressPercent` is the
    /// share of the head's surface seen; absent with markers.
    public var withoutMarkers: Bool?
    /// Times the vibration started.
    public var hapticStarts = 0
    /// Speech requests from the guide.
    public var speechRequests = 0

    private var start: Double?
    private var last: (time: Double, raw: String, published: String)?

    private enum CodingKeys: String, CodingKey {
        case frames, duration, publishedSeconds, rawSeconds, milestoneSeconds, completedSeconds, missingMarkers,
            progressPercent, regionsCovered, featuresSeen, withoutMarkers, hapticStarts, speechRequests
    }

    /// An empty summary.
    public init() {}

    /// Adds one frame's update.
    public mutating func add(_ update: GuidanceUpdate, guide: ScanGuide) {
        let t = update.time
        let start = self.start ?? t
        self.start = start
        if let last {
            let dt = max(0, t - last.time)
            publishedSeconds[last.published, default: 0] += dt
            rawSeconds[last.raw, default: 0] += dt
        }
        last = (t, update.raw.kind.rawValue, update.published.kind.rawValue)
        frames += 1
        duration = t - start
        for event in update.events {
            switch event {
            case .milestone(let p): milestoneSeconds[p] = t - start
            case .completed(let missing):
                completedSeconds = t - start
                missingMarkers = missing
            case .hapticStart: hapticStarts += 1
            case .speak: speechRequests += 1
            default: break
            }
        }
        progressPercent = update.progress.percent
        regionsCovered = update.progress.regionsCovered.map(\.rawValue)
        featuresSeen = update.progress.featuresSeen.map(\.rawValue)
        if completedSeconds == nil { missingMarkers = guide.missingIDs }
        withoutMarkers = guide.followsSurface ? true : nil
    }

    /// The milestones reached, in order: percent and seconds from the start.
    public var milestones: [(percent: Int, seconds: Double)] {
        milestoneSeconds.map { (percent: $0.key, seconds: $0.value) }.sorted { $0.percent < $1.percent }
    }

    /// Seconds in a published class.
    public func seconds(published kind: PositionClass) -> Double { publishedSeconds[kind.rawValue] ?? 0 }
}
