import SettingsSchema

/// When progress is announced.
public enum ProgressIncrement: String, Sendable, Codable, CaseIterable {
    /// "25 percent", "50 percent", "75 percent", "done".
    case every25
    /// "50 percent", "done".
    case every50
    /// Only "done".
    case only100

    /// The announced percentages below 100, in order.
    public var milestones: [Int] {
        switch self {
        case .every25: [25, 50, 75]
        case .every50: [50]
        case .only100: []
        }
    }
}

/// What is spoken while the position is not ideal (the vibration runs either way).
public enum PositionAudio: String, Sendable, Codable, CaseIterable {
    /// "too close" and the direction instructions.
    case directions
    /// Only "too close"; an operator who finds directions distracting relies on the vibration.
    case tooCloseOnly
}

/// How a direction is put into words.
public enum Phrasing: String, Sendable, Codable, CaseIterable {
    /// Where to move the phone ("move the phone left"), as in the original app.
    case movePhone
    /// Where the head should move in the picture ("bring the head right in the picture"),
    /// which a therapist in the study found easier to follow.
    case headInPicture
}

/// The spoken language.
public enum Language: String, Sendable, Codable, CaseIterable {
    case de, en

    /// The espeak-ng voice for the language.
    public var espeakVoice: String { rawValue }
}

/// Every threshold of the scan guide, with the defaults of the specification and the original app.
///
/// Decoding accepts any subset of the keys; missing ones keep their defaults, so a settings
/// file names only what it changes.
public struct FeedbackSettings: Sendable, Codable, Equatable {
    /// Markers on the cap: the denominator of progress (the original's setting, default 57).
    public var markerCount = 57
    /// Which progress percentages are spoken (default every 25 %).
    public var progressIncrement = ProgressIncrement.every25
    /// Whether direction instructions are spoken or only "too close" (default directions).
    public var positionAudio = PositionAudio.directions
    /// Move-the-phone or head-in-picture wording (default move the phone).
    public var phrasing = Phrasing.movePhone
    /// Spoken language (default German).
    public var language = Language.de
    /// Frames in a row with the same raw class before the published position changes (4).
    public var debounceFrames = 4
    /// Above this fraction of detected markers with an invalid corner depth the phone is too
    /// close (0.30; exactly 0.30 is not too close).
    public var invalidDepthRatio = 0.30
    /// Half-width of the image's middle band on each axis, as a fraction of the image side
    /// (0.05).
    public var centerBand = 0.05
    /// Green markers a frame needs for sufficient overlap (2); also the bootstrap count.
    public var minSharedMarkers = 2
    /// The same instruction is spoken at most once in this many seconds (2).
    public var sameInstructionInterval = 2.0
    /// While the position stays off, its instruction is requested again after this many
    /// seconds (2); the speech scheduler still drops repeats inside `sameInstructionInterval`.
    public var instructionRepeatInterval = 2.0
    /// A region counts as covered when this fraction of its markers was seen (0.5): fallen-off
    /// stickers must not hold a region back.
    public var regionCoverage = 0.5
    /// Seconds without a new marker ID after which progress counts as stalled (5): triggers
    /// region guidance and, with every region covered, completion with missing markers.
    public var stallSeconds = 5.0
    /// Whether "back of the head is missing" style guidance is spoken (true).
    public var regionGuidance = true
    /// Whether completion waits until both ears and the face were in the picture (true).
    public var requireEarsAndFace = true
    /// Distance from the lowest front marker down to the tip of the nose on an infant head,
    /// metres (0.045); the face counts as in the picture when that point is.
    public var faceReach = 0.045
    /// Distance from the lowest side marker down to the ear's centre, metres (0.03).
    public var earReach = 0.03
    /// Markers of a region that must be in a frame before it can show the face or an ear (2).
    public var featureMinMarkers = 2
    /// Seconds between repeated ear/face reminders (6).
    public var reminderInterval = 6.0
    /// When the markers leave the picture, the last direction is kept for this many seconds
    /// instead of "none" (1; 0 keeps the original's "none").
    public var directionMemory = 1.0
    /// Printed marker side, metres (0.014, the standard cap); turns pixels into millimetres on
    /// the head for the ear/face rule.
    public var markerSide = 0.014
    /// Whether the guide follows the head's surface instead of the cap's markers (false): for a
    /// cap without stickers, printed or plain, or a bare head. Position comes from the head in
    /// the depth picture, progress from the share of the head's surface seen.
    public var withoutMarkers = false
    /// Without markers, a region counts as covered when this share of its surface was seen (0.8).
    public var surfaceCoverage = 0.8
    /// Without markers, a part of the head counts as seen from a camera within this many
    /// degrees of straight above it (50), as do the face and each ear.
    public var viewAngle = 50.0
    /// Without markers, the phone is too close when the middle of the picture lacks depth and
    /// the head's nearest surface is, or just was, nearer than this, metres (0.22: the
    /// TrueDepth camera measures from about 0.2 m; dark hair leaves the middle without depth
    /// at any distance, so the margin is kept small).
    public var tooCloseDistance = 0.22

    /// The defaults.
    public init() {}

    /// Checks every value, naming the first one out of range.
    public func validate() throws(FeedbackError) {
        let values = numericValues
        for (key, limit) in Self.limits where !limit.contains(values[key] ?? .nan) {
            throw .invalidSetting(key, limit.description)
        }
    }

    /// What each numeric setting must lie in, in declaration order; choices and switches
    /// accept any of their values and are not listed.
    public static let limits: [(key: String, limit: SettingLimit)] = [
        ("markerCount", .atLeast(1)), ("debounceFrames", .atLeast(1)), ("invalidDepthRatio", .within(0...1)),
        ("centerBand", .from(0, below: 0.5)), ("minSharedMarkers", .atLeast(1)), ("sameInstructionInterval", .nonNegative),
        ("instructionRepeatInterval", .positive), ("regionCoverage", .above(0, upTo: 1)), ("stallSeconds", .positive),
        ("faceReach", .nonNegative), ("earReach", .nonNegative), ("featureMinMarkers", .atLeast(1)),
        ("reminderInterval", .positive), ("directionMemory", .nonNegative), ("markerSide", .positive),
        ("surfaceCoverage", .above(0, upTo: 1)), ("viewAngle", .above(0, upTo: 90)), ("tooCloseDistance", .positive),
    ]

    /// The limit of the setting named `key`, nil for choices, switches and unknown names.
    public static func limit(of key: String) -> SettingLimit? {
        limits.first { $0.key == key }?.limit
    }

    /// Every whole-number and decimal setting by its JSON key.
    public var numericValues: [String: Double] {
        var values: [String: Double] = [:]
        for child in Mirror(reflecting: self).children {
            guard let key = child.label else { continue }
            if let value = child.value as? Int { values[key] = Double(value) }
            if let value = child.value as? Double { values[key] = value }
        }
        return values
    }

    /// Every setting as it stands in a settings file, in declaration order.
    public static var schema: SettingsSchema<FeedbackSettings> {
        SettingsSchema([
            .field("markerCount", \.markerCount),
            .field("progressIncrement", \.progressIncrement),
            .field("positionAudio", \.positionAudio),
            .field("phrasing", \.phrasing),
            .field("language", \.language),
            .field("debounceFrames", \.debounceFrames),
            .field("invalidDepthRatio", \.invalidDepthRatio),
            .field("centerBand", \.centerBand),
            .field("minSharedMarkers", \.minSharedMarkers),
            .field("sameInstructionInterval", \.sameInstructionInterval),
            .field("instructionRepeatInterval", \.instructionRepeatInterval),
            .field("regionCoverage", \.regionCoverage),
            .field("stallSeconds", \.stallSeconds),
            .field("regionGuidance", \.regionGuidance),
            .field("requireEarsAndFace", \.requireEarsAndFace),
            .field("faceReach", \.faceReach),
            .field("earReach", \.earReach),
            .field("featureMinMarkers", \.featureMinMarkers),
            .field("reminderInterval", \.reminderInterval),
            .field("directionMemory", \.directionMemory),
            .field("markerSide", \.markerSide),
            .field("withoutMarkers", \.withoutMarkers),
            .field("surfaceCoverage", \.surfaceCoverage),
            .field("viewAngle", \.viewAngle),
            .field("tooCloseDistance", \.tooCloseDistance),
        ])
    }

    /// The setting names a settings file may use, for help texts and error messages.
    public static var keys: [String] { schema.names }

    public init(from decoder: any Decoder) throws {
        self.init()
        try Self.schema.decode(decoder, into: &self) { "unknown setting \"\($0)\"; known: \(Self.keys.joined(separator: ", "))" }
    }

    public func encode(to encoder: any Encoder) throws {
        try Self.schema.encode(self, to: encoder)
    }
}

extension FeedbackSettings {
    /// Every setting's JSON key with its default value, in declaration order; enumerations
    /// list their choices with the default first ("every25 | every50 | only100").
    public static var documentedDefaults: [(key: String, value: String)] {
        let choices: [String: [String]] = [
            "progressIncrement": ProgressIncrement.allCases.map(\.rawValue), "positionAudio": PositionAudio.allCases.map(\.rawValue),
            "phrasing": Phrasing.allCases.map(\.rawValue), "language": Language.allCases.map(\.rawValue),
        ]
        return Mirror(reflecting: FeedbackSettings()).children.compactMap { child in
            guard let key = child.label else { return nil }
            if let options = choices[key] { return (key, options.joined(separator: " | ")) }
            return (key, "\(child.value)")
        }
    }
}
