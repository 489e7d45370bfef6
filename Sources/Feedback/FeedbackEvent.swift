import Markers

/// Parts of the head that lie below the cap and must still be in the scan.
public enum HeadFeature: String, Sendable, Codable, CaseIterable, Comparable {
    case face, leftEar, rightEar

    public static func < (a: HeadFeature, b: HeadFeature) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// Something the guide wants said; the words come from the `Phrasebook`.
public enum Phrase: Sendable, Hashable {
    /// The phone is too close to the head.
    case tooClose
    /// Move the phone toward a direction.
    case movePhone(Direction)
    /// The head should move toward a direction of the picture (the therapist who asked for
    /// this phrasing wanted to hear where the head should go, not where it is).
    case headInPicture(Direction)
    /// Markers have left the picture and no direction is known.
    case noHead
    /// A progress milestone below 100.
    case percent(Int)
    /// The scan is complete with every marker.
    case done
    /// The scan is complete; this many markers were never seen (fallen off).
    case doneMissing(Int)
    /// Progress stalls and this region of the cap has not been covered.
    case regionMissing(HeadRegion)
    /// These parts below the cap were never in the picture.
    case capture([HeadFeature])
    /// The cap sits too high: its lowest ring of markers is not seen.
    case capTooHigh
    /// Without markers, the head is in the picture but could not be placed on the surface
    /// scanned so far: go back to a part already scanned, more slowly.
    case goBack

    /// A stable machine-readable name, e.g. `movePhone.left-up`.
    public var key: String {
        switch self {
        case .tooClose: "tooClose"
        case .movePhone(let d): "movePhone.\(d.rawValue)"
        case .headInPicture(let d): "headInPicture.\(d.rawValue)"
        case .noHead: "noHead"
        case .percent(let p): "percent.\(p)"
        case .done: "done"
        case .doneMissing(let n): "doneMissing.\(n)"
        case .regionMissing(let r): "regionMissing.\(r.rawValue)"
        case .capture(let f): "capture.\(f.map(\.rawValue).joined(separator: "+"))"
        case .capTooHigh: "capTooHigh"
        case .goBack: "goBack"
        }
    }
}

/// How urgent an utterance is; decides what the speech scheduler may drop.
public enum SpeechPriority: String, Sendable, Codable, Comparable {
    /// Position and region instructions: a newer one replaces a pending one.
    case instruction
    /// Ear and face reminders: replace pending instructions, may be replaced likewise.
    case reminder
    /// Progress milestones and completion: never dropped.
    case milestone

    private var rank: Int { self == .instruction ? 0 : self == .reminder ? 1 : 2 }
    public static func < (a: SpeechPriority, b: SpeechPriority) -> Bool { a.rank < b.rank }
}

/// The traffic-light colours of the progress bar.
public enum ProgressColour: String, Sendable, Codable {
    /// 0–49 %.
    case red
    /// 50–99 %.
    case orange
    /// 100 %, or complete with fallen-off markers.
    case green

    /// The colour for a whole percentage.
    public init(percent: Int) {
        self = percent >= 100 ? .green : percent >= 50 ? .orange : .red
    }
}

/// What the guide tells the sinks (haptics, speech, screen).
public enum FeedbackEvent: Sendable, Equatable {
    /// Start the one continuous vibration pattern.
    case hapticStart
    /// Stop it.
    case hapticStop
    /// Say something.
    case speak(Phrase, SpeechPriority)
    /// The progress bar changes colour.
    case progressColourChanged(ProgressColour)
    /// Progress reached this percentage (25, 50, 75 or 100 depending on the setting).
    case milestone(Int)
    /// The scan is complete; these cap marker IDs were never seen.
    case completed(missing: [Int])
    /// The marker goal is reached but these parts of the head were never in the picture.
    case reminder([HeadFeature])

    /// The event's name in the JSON timeline.
    public var typeName: String {
        switch self {
        case .hapticStart: "hapticStart"
        case .hapticStop: "hapticStop"
        case .speak: "speak"
        case .progressColourChanged: "progressColour"
        case .milestone: "milestone"
        case .completed: "completed"
        case .reminder: "reminder"
        }
    }
}

/// An event at the time of the frame that caused it.
public struct TimedFeedbackEvent: Sendable, Equatable {
    /// Seconds since the scan started.
    public var time: Double
    public var event: FeedbackEvent

    /// An event at `time`.
    public init(time: Double, event: FeedbackEvent) {
        self.time = time
        self.event = event
    }
}
