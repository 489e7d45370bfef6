/// The centre of the circle through three points, or nil when they are collinear.
///
/// Works relative to the first point, which keeps the products small and the cancellation
/// harmless even when the points are nearly collinear and the circle is huge. The seed's
/// slope formula divides by the slopes, fails for vertical chords and carries a typo; this
/// form needs neither.
@inlinable
public func circumcentre(_ a: SIMD2<Double>, _ b: SIMD2<Double>, _ c: SIMD2<Double>) -> SIMD2<Double>? {
    let u = b - a, v = c - a
    let d = 2 * (u.x * v.y - u.y * v.x)
    guard d != 0, d.isFinite else { return nil }
    let uu = u.x * u.x + u.y * u.y, vv = v.x * v.x + v.y * v.y
    let centre = a + SIMD2((v.y * uu - u.y * vv) / d, (u.x * vv - v.x * uu) / d)
    return centre.x.isFinite && centre.y.isFinite ? centre : nil
}

/// The head pointer of one frame: the circumcentre of both eyes and the mouth, with the
/// sizes that normalise distances.
public struct HeadPointer: Sendable, Hashable {
    /// The circumcentre, in upright image pixels.
    public var position: SIMD2<Double>
    /// Distance between the eyes, pixels.
    public var eyeDistance: Double
    /// Distance from the midpoint of the eyes to the mouth, pixels.
    public var mouthDistance: Double

    /// A pointer whose circle is larger than this many times the triangle's longest side
    /// comes from landmarks that are nearly in a line; a face gives about 0.55.
    public static let maximumRadiusRatio = 3.0
    /// Eyes closer than this many pixels cannot scale anything.
    public static let minimumEyeDistance = 2.0

    /// A pointer from its parts.
    public init(position: SIMD2<Double>, eyeDistance: Double, mouthDistance: Double) {
        self.position = position
        self.eyeDistance = eyeDistance
        self.mouthDistance = mouthDistance
    }

    /// The pointer of `landmarks`, or why the three points cannot give one.
    public static func measure(_ landmarks: FaceLandmarks) -> Result<HeadPointer, DegenerateFace> {
        let a = landmarks.leftEye, b = landmarks.rightEye, c = landmarks.mouth
        guard a.x.isFinite, a.y.isFinite, b.x.isFinite, b.y.isFinite, c.x.isFinite, c.y.isFinite else { return .failure(.notFinite) }
        let eyes = norm(b - a)
        guard eyes >= minimumEyeDistance else { return .failure(.eyesTooClose) }
        guard let centre = circumcentre(a, b, c) else { return .failure(.collinear) }
        let longest = max(eyes, norm(c - a), norm(c - b))
        guard norm(centre - a) <= maximumRadiusRatio * longest else { return .failure(.collinear) }
        return .success(HeadPointer(position: centre, eyeDistance: eyes, mouthDistance: norm(c - (a + b) / 2)))
    }
}

/// Why a frame's landmarks give no head pointer; such frames are skipped, never turned into
/// a pointer far outside the image.
public enum DegenerateFace: String, Error, Sendable, Hashable, CaseIterable {
    /// A coordinate is NaN or infinite.
    case notFinite
    /// The eyes coincide.
    case eyesTooClose
    /// Eyes and mouth (nearly) on one line: the circle through them is far too large.
    case collinear
}

@inlinable
func norm(_ v: SIMD2<Double>) -> Double { (v.x * v.x + v.y * v.y).squareRoot() }
