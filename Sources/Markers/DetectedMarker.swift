/// One marker found in an image.
public struct DetectedMarker: Sendable, Hashable, Codable {
    /// The marker's ID in the dictionary it was searched with.
    public var id: Int
    /// The four outer corners in pixels, in OpenCV's order: the marker's top-left, top-right,
    /// bottom-right and bottom-left as drawn (clockwise on screen), pixel centres at integers.
    public var corners: [SIMD2<Double>]
    /// Bits that differed from the dictionary's code and were corrected (0 for a perfect read).
    public var correctedBits: Int
    /// How clearly the code was read, as AprilTag's decision margin: the mean distance of the
    /// inner cells' gray levels from the black/white threshold, in gray levels (0...127.5).
    /// Sharp, well-lit markers read 80 and more; below about 20 a wrong bit becomes likely.
    public var decisionMargin: Double
    /// The smallest distance of an inner cell from the threshold, in gray levels: the cell
    /// closest to flipping.
    public var minimumMargin: Double
    /// The marker's white surround minus its black border, in gray levels.
    public var contrast: Double

    /// A detection; `corners` must hold four points. The margins and contrast default to 0
    /// (unknown), as for detections made elsewhere.
    public init(
        id: Int, corners: [SIMD2<Double>], correctedBits: Int = 0, decisionMargin: Double = 0,
        minimumMargin: Double = 0, contrast: Double = 0
    ) {
        precondition(corners.count == 4, "a marker has four corners")
        self.id = id
        self.corners = corners
        self.correctedBits = correctedBits
        self.decisionMargin = decisionMargin
        self.minimumMargin = minimumMargin
        self.contrast = contrast
    }

    /// The mean of the four corners.
    public var centre: SIMD2<Double> { corners.reduce(.zero, +) / 4 }

    /// Sum of the four side lengths, in pixels.
    public var perimeter: Double {
        (0..<4).reduce(0.0) { sum, i in
            let d = corners[(i + 1) % 4] - corners[i]
            return sum + (d * d).sum().squareRoot()
        }
    }

    private enum CodingKeys: String, CodingKey {
        case id, corners, correctedBits, decisionMargin, minimumMargin, contrast
    }

    /// Reads detections written before the margins existed as well (they read 0).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let corners = try c.decode([SIMD2<Double>].self, forKey: .corners)
        guard corners.count == 4 else {
            throw DecodingError.dataCorruptedError(
                forKey: .corners, in: c, debugDescription: "a marker has four corners, not \(corners.count)")
        }
        self.init(
            id: try c.decode(Int.self, forKey: .id), corners: corners,
            correctedBits: try c.decodeIfPresent(Int.self, forKey: .correctedBits) ?? 0,
            decisionMargin: try c.decodeIfPresent(Double.self, forKey: .decisionMargin) ?? 0,
            minimumMargin: try c.decodeIfPresent(Double.self, forKey: .minimumMargin) ?? 0,
            contrast: try c.decodeIfPresent(Double.self, forKey: .contrast) ?? 0)
    }
}

/// What one detection did, for tuning: how many candidates each stage passed on, and why
/// each rejected candidate was dropped.
public struct DetectionDiagnostics: Sendable, Hashable, Codable {
    /// Why a candidate quadrilateral was not reported.
    public enum Reason: String, Sendable, Hashable, Codable, CaseIterable {
        /// Its corners do not span a quadrilateral the code can be read through.
        case degenerate
        /// Its black border and white surround differ by less than `minContrast`.
        case lowContrast = "low-contrast"
        /// Too many border cells read white.
        case border
        /// The edges could not be measured, or a corner would move too far.
        case refinement
        /// The code is not in the dictionary within the allowed correction.
        case unknownCode = "unknown-code"
        /// It lies inside a larger detection.
        case nested
    }

    /// A candidate that was dropped.
    public struct Rejection: Sendable, Hashable, Codable {
        /// The candidate's corners (rough or refined, whichever it reached), clockwise.
        public var corners: [SIMD2<Double>]
        /// Why it was dropped.
        public var reason: Reason
        /// The code's distance to the nearest dictionary code, when the code was read.
        public var nearestDistance: Int?
    }

    /// Outer contours of marker-like length traced (main and recovery passes).
    public var contours = 0
    /// Contours that were convex quadrilaterals away from the image border.
    public var quadrilaterals = 0
    /// Candidates whose rough look showed a dark border on a light surround.
    public var borderChecked = 0
    /// Candidates whose corners were refined.
    public var refined = 0
    /// Candidates whose code was identified.
    public var decoded = 0
    /// Markers reported (decoded ones minus those nested in larger ones).
    public var reported = 0
    /// Regions searched again with the narrow recovery window.
    public var recoveryRegions = 0
    /// The dropped candidates.
    public var rejections: [Rejection] = []

    /// Empty counts.
    public init() {}
}
