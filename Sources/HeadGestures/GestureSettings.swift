import SettingsSchema

/// Whether looks are reported while they last or once they are over.
public enum GestureMode: String, Sendable, Codable, CaseIterable {
    /// "Started looking left" when the head gets there, "stopped looking left" when it comes
    /// back: for holding a direction (scrolling, steering).
    case continuous
    /// "Looked left" once the head has come back into the idle zone: one command per look.
    case discrete
}

/// Every threshold of head-gesture recognition. Distances are in eye distances (the space
/// between the eyes in the picture), so the same settings hold near the camera and far from it.
///
/// Decoding accepts any subset of the keys; missing ones keep their defaults.
public struct GestureSettings: Sendable, Codable, Equatable {
    /// Diameter of the idle zone around the calibrated centre (0.4): the natural sway of a
    /// resting head and a shaking hand stay inside it.
    public var idleZoneDiameter = 0.4
    /// A look starts once the pointer is this far from the centre along its direction (0.3);
    /// at least the idle radius.
    public var movementThreshold = 0.3
    /// Continuous or discrete looks (discrete).
    public var mode = GestureMode.discrete
    /// Frames analysed per second at most (0: every frame); frames arriving sooner are skipped.
    public var detectionRate = 0.0
    /// A look ends only once the pointer is back inside this fraction of the idle radius
    /// below the radius (0.25), so that a head resting on the border does not chatter.
    public var hysteresis = 0.25
    /// Steady pointer samples calibration collects (10); the centre is the mean of the last 5.
    public var calibrationSamples = 10
    /// A jump of the pointer between two calibration samples larger than this restarts
    /// calibration (0.2).
    public var calibrationJump = 0.2
    /// Seconds without a face after which tracking stops and calibration starts again when
    /// the face returns (0.5); shorter gaps are bridged.
    public var faceLossSeconds = 0.5
    /// Whether nods and shakes are recognised (true).
    public var recognisesNodsAndShakes = true
    /// A look shorter than this many seconds may be part of a nod or shake (1.0: a swing of a
    /// slow, deep nod lasts up to about 0.8 s past the threshold), if it does not dwell at
    /// its peak as a held look does.
    public var quickLookSeconds = 1.0
    /// Quick looks belong to one nod or shake when less than this many seconds apart (0.5);
    /// a single quick look is reported this long after it, once no second one followed.
    public var gestureGapSeconds = 0.5
    /// Time constant in seconds with which the centre follows the head while it looks nowhere
    /// (2; 0: never), so that a slowly changing posture is no gesture; while the face changes
    /// size (leaning in or back) it follows within a quarter of a second.
    public var centreFollowSeconds = 2.0
    /// The smallest reach, eye distances, at which a swing counts toward a nod or shake when
    /// the head rests calmly (0.14, about 6° of nodding or turning for an average face: a
    /// conversational nod of 10° passes it with a margin for the landmarks' noise). The threshold rises with the person's own resting sway (`swayFactor` times it) up
    /// to `movementThreshold`, so a restless head's sway makes no nod; swings below the
    /// movement threshold only count as part of a nod or shake, never as looks. Equal to
    /// `movementThreshold`: every swing must pass it, as before.
    public var swingThreshold = 0.14
    /// How many times the resting sway (the root mean square of the resting pointer's offset
    /// from the centre, per axis, measured during calibration and whenever the head rests) a
    /// swing must reach (4: a sway of two slow sines peaks at twice its root mean square).
    public var swayFactor = 4.0

    /// The defaults.
    public init() {}

    /// Half the idle zone's diameter.
    public var idleRadius: Double {
        get { idleZoneDiameter / 2 }
        set { idleZoneDiameter = newValue * 2 }
    }

    /// Where a look ends: the idle radius shrunk by the hysteresis.
    public var returnRadius: Double { idleRadius * (1 - hysteresis) }

    /// Where a swing that started at `threshold` (below the movement threshold) ends: back
    /// inside the same share of it as a look's return radius is of the movement threshold.
    public func swingReturn(_ threshold: Double) -> Double { min(returnRadius, threshold * returnRadius / movementThreshold) }

    /// Checks every value, naming the first one out of range and how to fix it.
    public func validate() throws(GestureError) {
        func require(_ ok: Bool, _ name: String, _ rule: String) throws(GestureError) {
            if !ok { throw .invalidSetting(name: name, rule: rule) }
        }
        try require(idleZoneDiameter > 0 && idleZoneDiameter.isFinite, "idleZoneDiameter", "must be a positive number of eye distances, such as 0.4")
        try require(
            movementThreshold >= idleRadius && movementThreshold.isFinite, "movementThreshold",
            "must be at least the idle radius (\(idleRadius)); raise it or make idleZoneDiameter smaller")
        try require(
            detectionRate >= 0 && detectionRate.isFinite, "detectionRate", "must be 0 (every frame) or a positive number of frames per second")
        try require((0..<1).contains(hysteresis), "hysteresis", "must lie in 0..<1, such as 0.25")
        try require(calibrationSamples >= 5, "calibrationSamples", "must be at least 5, since the centre is the mean of the last 5")
        try require(calibrationJump > 0, "calibrationJump", "must be a positive number of eye distances, such as 0.2")
        try require(faceLossSeconds >= 0, "faceLossSeconds", "must not be negative")
        try require(quickLookSeconds > 0, "quickLookSeconds", "must be positive, such as 1.0")
        try require(gestureGapSeconds > 0, "gestureGapSeconds", "must be positive, such as 0.5")
        try require(centreFollowSeconds >= 0, "centreFollowSeconds", "must be 0 (never) or a positive number of seconds")
        try require(
            swingThreshold > 0 && swingThreshold <= movementThreshold, "swingThreshold",
            "must be above 0 and at most the movement threshold (\(movementThreshold)), such as 0.14")
        try require(swayFactor >= 0 && swayFactor.isFinite, "swayFactor", "must be 0 or more, such as 4")
    }

    /// Every setting as it stands in a settings file, in declaration order.
    public static var schema: SettingsSchema<GestureSettings> {
        SettingsSchema([
            .field("idleZoneDiameter", \.idleZoneDiameter),
            .field("movementThreshold", \.movementThreshold),
            .field("mode", \.mode),
            .field("detectionRate", \.detectionRate),
            .field("hysteresis", \.hysteresis),
            .field("calibrationSamples", \.calibrationSamples),
            .field("calibrationJump", \.calibrationJump),
            .field("faceLossSeconds", \.faceLossSeconds),
            .field("recognisesNodsAndShakes", \.recognisesNodsAndShakes),
            .field("quickLookSeconds", \.quickLookSeconds),
            .field("gestureGapSeconds", \.gestureGapSeconds),
            .field("centreFollowSeconds", \.centreFollowSeconds),
            .field("swingThreshold", \.swingThreshold),
            .field("swayFactor", \.swayFactor),
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
