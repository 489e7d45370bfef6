import Geometry

/// What registering the keyframes against the fused surface found: how far the head stood from
/// where its cap's markers put it, and when that changed (the cap slid).
public struct HeadTrackingReport: Sendable, Codable, Equatable {
    /// Keyframes placed by the surface (with their markers as the start).
    public var keyframesTracked = 0
    /// Keyframes at which the correction changed (the cap moved on the head).
    public var keyframesMoved = 0
    /// Keyframes a second pass placed elsewhere on the whole surface (those fused while the
    /// cap was moving).
    public var keyframesPlacedAgain = 0
    /// Keyframes the surface could not place (too few points on it), fused where the markers
    /// and the last correction put them.
    public var keyframesUntracked = 0
    /// Largest difference between where the markers and where the surface put the head:
    /// millimetres on a head-sized sphere (70 mm) round the fused region's centre, and degrees.
    public var largestShiftMillimetres = 0.0
    public var largestTurnDegrees = 0.0
    /// The first frame at which the head stood more than `movedMillimetres` from where the
    /// markers put it: the cap moved on the head there.
    public var capMovedAtFrame: Int?
    /// The correction at the end of the scan, millimetres on the head-sized sphere.
    public var finalShiftMillimetres = 0.0

    /// A shift that says the cap moved (more than the markers' and the surface's own scatter).
    public static let movedMillimetres = 2.0
    /// A change of the correction smaller than this (millimetres on the head-sized sphere) is
    /// the surface's scatter, not the cap moving: the correction holds.
    public static let holdMillimetres = 1.0
    /// Most a cap can move on an infant's head, millimetres on the head-sized sphere (about
    /// 15°: further and it would cover the eyes or bare the crown); a registration that moves
    /// the head further than this from its markers has found something else.
    public static let mostCapMovementMillimetres = 20.0
    /// The radius on which a turn is counted as a shift.
    static let headRadius = 0.07

    public init() {}

    /// Millimetres a correction moves points on a head-sized sphere round `centre`, at most,
    /// and its angle in degrees.
    static func size(of correction: RigidTransform, about centre: SIMD3<Double>) -> (millimetres: Double, degrees: Double) {
        let shift = length(correction.apply(centre) - centre)
        let angle = correction.rotation.angle
        return ((shift + angle * headRadius) * 1000, angle * 180 / Double.pi)
    }

    mutating func record(_ correction: RigidTransform, about centre: SIMD3<Double>, frame: Int) {
        let (millimetres, degrees) = Self.size(of: correction, about: centre)
        largestShiftMillimetres = max(largestShiftMillimetres, millimetres)
        largestTurnDegrees = max(largestTurnDegrees, degrees)
        finalShiftMillimetres = millimetres
        if capMovedAtFrame == nil, millimetres > Self.movedMillimetres { capMovedAtFrame = frame }
    }
}
