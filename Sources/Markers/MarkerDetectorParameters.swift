/// Tuning of `MarkerDetector`; the defaults suit 640x480 TrueDepth colour frames with
/// markers from about 10 to 150 pixels across.
public struct MarkerDetectorParameters: Sendable, Hashable, Codable {
    /// Side of the adaptive-threshold window in pixels (odd). A marker's outer contour
    /// survives whenever the window is narrower than its quiet zone plus border is wide, or
    /// the whole marker fits inside the window.
    public var thresholdWindow: Int = 15
    /// Side of the narrower window (odd) applied around contours that failed the
    /// quadrilateral test, for small markers whose thin quiet zone merged with a dark
    /// background under `thresholdWindow`.
    public var recoveryWindow: Int = 5
    /// Longest failed contour, in pixels, around which `recoveryWindow` is tried.
    public var recoveryMaxPerimeter: Int = 120
    /// How much darker than its neighbourhood mean (in gray levels) a pixel must be to count
    /// as part of a marker.
    public var thresholdOffset: Int = 7
    /// Shortest marker outline, in pixels (4 x the side of the smallest marker kept).
    public var minPerimeter: Int = 28
    /// Longest outline, as a multiple of the image's larger side.
    public var maxPerimeterRate: Double = 4
    /// How far a contour may stray from its quadrilateral, as a fraction of its length.
    public var polygonAccuracyRate: Double = 0.03
    /// Shortest side of a candidate, as a fraction of its outline.
    public var minSideRate: Double = 0.05
    /// Candidates with a corner closer than this to the image border are dropped: their
    /// outer cells may be cut off.
    public var minDistanceToBorder: Double = 2
    /// Fewest gray levels between a candidate's black border and its white surround.
    public var minContrast: Double = 15
    /// Share of border cells that may read white.
    public var maxBorderErrorRate: Double = 0.25
    /// Share of the dictionary's correctable bits that are actually corrected (OpenCV's
    /// errorCorrectionRate). Lower means fewer detections but less risk of a wrong ID.
    public var errorCorrectionRate: Double = 0.6
    /// Whether corners are refined to sub-pixel accuracy by edge fitting.
    public var refineCorners: Bool = true

    /// The defaults.
    public init() {}
}
