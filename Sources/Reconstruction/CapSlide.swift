import Geometry

/// A cap that slid on the head during the scan, as the fusion found and undid it: when, how
/// far, and what was done (the keyframes while it moved set aside, the ones after it placed on
/// the head's surface from before it).
public struct CapSlide: Sendable, Codable, Equatable {
    /// When the slide began and when the keyframes placed after it begin, seconds from the
    /// scan's first frame.
    public var startSeconds: Double
    public var endSeconds: Double
    /// The first frame of the slide and the first frame after it: frames from `endFrame` on see
    /// the cap where it came to rest; frames between cannot be placed by their markers.
    public var startFrame: Int
    public var endFrame: Int
    /// How far the head lay from where the cap's markers put it after the slide: millimetres
    /// on a head-sized sphere (70 mm) round the head's centre, and the turn in degrees.
    public var millimetres: Double
    public var degrees: Double
    /// Keyframes set aside while the cap moved, and keyframes placed after it.
    public var keyframesSetAside: Int
    public var keyframesMoved: Int
    /// Share of the depth after the slide lying on the surface seen before it: where the markers
    /// put it, and where the head's surface does.
    public var onSurfaceByMarkers: Double
    public var onSurfaceByHead: Double

    /// The radius on which a turn is counted as a shift: an infant's head.
    static let headRadius = 0.07

    /// Millimetres a correction moves points on a head-sized sphere round `centre`, at most
    /// (its shift plus its turn along that radius), and its angle in degrees.
    public static func size(of correction: RigidTransform, about centre: SIMD3<Double>) -> (millimetres: Double, degrees: Double) {
        let shift = length(correction.apply(centre) - centre)
        let angle = correction.rotation.angle
        return ((shift + angle * headRadius) * 1000, angle * 180 / Double.pi)
    }

    public init(
        startSeconds: Double, endSeconds: Double, startFrame: Int, endFrame: Int, millimetres: Double, degrees: Double, keyframesSetAside: Int,
        keyframesMoved: Int, onSurfaceByMarkers: Double, onSurfaceByHead: Double
    ) {
        self.startSeconds = startSeconds
        self.endSeconds = endSeconds
        self.startFrame = startFrame
        self.endFrame = endFrame
        self.millimetres = millimetres
        self.degrees = degrees
        self.keyframesSetAside = keyframesSetAside
        self.keyframesMoved = keyframesMoved
        self.onSurfaceByMarkers = onSurfaceByMarkers
        self.onSurfaceByHead = onSurfaceByHead
    }
}

/// A slide of the cap the depth showed, but not clearly enough to undo it: a cap that held
/// still never showed this much (see `CapSlideSearch.doubtGain`), and a cap that slid about a
/// round skull's own axis may show no more. What was measured may be off by it.
public struct CapSlideDoubt: Sendable, Codable, Equatable {
    /// When the slide may have begun, seconds from the scan's first frame.
    public var startSeconds: Double
    /// How far the head would have moved against its cap: millimetres on a head-sized sphere.
    public var millimetres: Double
    /// The share more of the depth after that moment the correction brings onto the surface
    /// before it (a slide is undone from `CapSlideSearch.acceptedGain` on).
    public var gain: Double

    public init(startSeconds: Double, millimetres: Double, gain: Double) {
        self.startSeconds = startSeconds
        self.millimetres = millimetres
        self.gain = gain
    }
}
