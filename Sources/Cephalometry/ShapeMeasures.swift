import Foundation
import Geometry

/// The measures a clinical 3D head scanner reports beyond the calliper's five: volumes and
/// their symmetry, radial symmetry, height, ear offset, the longest diagonal and the
/// forehead's angle. Definitions and sources: docs/measures.md.
public struct ShapeMeasures: Sendable, Codable, Equatable {
    /// Volume above the reference plane, cm³.
    public var cranialVolumeCM3: Double
    /// That volume by quadrant (mid-sagittal plane × coronal plane through the tragions).
    public var quadrantVolumes: QuadrantVolumes
    /// Smaller / larger front quadrant volume × 100 (100 = symmetric).
    public var anteriorSymmetryRatio: Double
    /// Smaller / larger back quadrant volume × 100.
    public var posteriorSymmetryRatio: Double
    /// Smaller / larger half (left against right) × 100.
    public var overallSymmetryRatio: Double
    /// Sum of the differences between mirrored left and right radii every 15° in the measured
    /// slice, mm (0 = symmetric about the mid-sagittal plane).
    public var radialSymmetryIndexMM: Double
    /// Height of the crown above the reference plane, mm.
    public var cranialHeightMM: Double
    /// How far the right tragion lies in front of the left along the facial midline, mm
    /// (positive: right ear forward).
    public var earOffsetMM: Double
    /// The longest chord through the tragion midpoint in the measured slice, mm.
    public var longestDiagonalMM: Double
    /// Its front end's angle from straight ahead, degrees, positive toward the infant's left
    /// (diagonal A lies at +30°, B at −30°).
    public var longestDiagonalAngleDegrees: Double
    /// Angle of the forehead at its most forward point in the measured slice, between the
    /// outline points 25 mm to either side, degrees; nil where the outline is too narrow.
    public var foreheadAngleDegrees: Double?

    /// The ratios from the quadrant volumes; the other values as given.
    public init(
        quadrantVolumes q: QuadrantVolumes, radialSymmetryIndexMM: Double, cranialHeightMM: Double, earOffsetMM: Double,
        longestDiagonalMM: Double, longestDiagonalAngleDegrees: Double, foreheadAngleDegrees: Double?
    ) {
        func ratio(_ a: Double, _ b: Double) -> Double { max(a, b) > 0 ? min(a, b) / max(a, b) * 100 : 100 }
        cranialVolumeCM3 = q.totalCM3
        quadrantVolumes = q
        anteriorSymmetryRatio = ratio(q.frontLeftCM3, q.frontRightCM3)
        posteriorSymmetryRatio = ratio(q.backLeftCM3, q.backRightCM3)
        overallSymmetryRatio = ratio(q.frontLeftCM3 + q.backLeftCM3, q.frontRightCM3 + q.backRightCM3)
        self.radialSymmetryIndexMM = radialSymmetryIndexMM
        self.cranialHeightMM = cranialHeightMM
        self.earOffsetMM = earOffsetMM
        self.longestDiagonalMM = longestDiagonalMM
        self.longestDiagonalAngleDegrees = longestDiagonalAngleDegrees
        self.foreheadAngleDegrees = foreheadAngleDegrees
    }
}

/// The slice-based parts of the shape measures.
enum SliceShape {
    /// Radii are compared every this many degrees.
    static let radialStepDegrees = 15.0
    /// The forehead's angle is taken between outline points this far to either side (metres).
    static let foreheadHalfSpan = 0.025

    /// Σ |r(θ) − r(−θ)| over θ = 15°, 30° … 165° from straight ahead, radii from the point on
    /// the mid-sagittal axis level with the outline's centroid, in mm.
    ///
    /// Mirrored pairs, not opposite ones: the typical positional head is a parallelogram, whose
    /// opposite radii are equal, so comparing r(θ) with r(θ + 180°) would call it symmetric.
    static func radialSymmetryIndex(_ outline: SliceContour) -> Double {
        let centre = SIMD2(0, outline.polygon.centroid.y)
        var sum = 0.0
        var angle = radialStepDegrees
        while angle < 180 {
            let a = angle * Double.pi / 180
            // Angles from straight ahead (+y); toward the left is −x.
            let towardLeft = SIMD2(-sin(a), cos(a)), towardRight = SIMD2(sin(a), cos(a))
            if let l = outline.farthestCrossing(from: centre, along: towardLeft)?.distance,
                let r = outline.farthestCrossing(from: centre, along: towardRight)?.distance
            {
                sum += abs(l - r)
            }
            angle += radialStepDegrees
        }
        return sum * 1000
    }

    /// The longest chord through the origin and its angle (degrees from straight ahead,
    /// positive toward the left): a 0.5° scan refined by golden-section search.
    static func longestDiagonal(_ outline: SliceContour) -> (length: Double, angleDegrees: Double) {
        func chord(_ degrees: Double) -> Double {
            let a = degrees * Double.pi / 180
            let u = SIMD2(-sin(a), cos(a))
            return (outline.farthestCrossing(from: .zero, along: u)?.distance ?? 0)
                + (outline.farthestCrossing(from: .zero, along: -u)?.distance ?? 0)
        }
        var best = (length: -1.0, angle: 0.0)
        for step in 0..<360 {
            let angle = -90 + Double(step) * 0.5
            let length = chord(angle)
            if length > best.length { best = (length, angle) }
        }
        var low = best.angle - 0.5, high = best.angle + 0.5
        let ratio = (5.0.squareRoot() - 1) / 2
        for _ in 0..<40 {
            let a = high - ratio * (high - low), b = low + ratio * (high - low)
            if chord(a) > chord(b) { high = b } else { low = a }
        }
        var angle = (low + high) / 2
        let length = max(chord(angle), best.length)
        if angle <= -90 { angle += 180 } else if angle > 90 { angle -= 180 }
        return (length * 1000, angle)
    }

    /// The angle at the outline's most forward point between the outline points
    /// `foreheadHalfSpan` to either side; nil when a side has no outline that far out.
    static func foreheadAngle(_ outline: SliceContour) -> Double? {
        guard let apex = outline.polygon.points.max(by: { $0.y < $1.y }) else { return nil }
        var angle = 180.0
        for side in [-1.0, 1.0] {
            let x = apex.x + side * foreheadHalfSpan
            guard let y = outline.frontmostY(atX: x) else { return nil }
            angle -= atan2(apex.y - y, foreheadHalfSpan) * 180 / Double.pi
        }
        return angle
    }
}

extension SliceContour {
    /// The largest y where the vertical line at `x` crosses the outline.
    func frontmostY(atX x: Double) -> Double? {
        let p = polygon.points
        var best: Double?
        for i in p.indices {
            let a = p[i], b = p[(i + 1) % p.count]
            guard (a.x - x) * (b.x - x) <= 0, a.x != b.x else { continue }
            let y = a.y + (b.y - a.y) * (x - a.x) / (b.x - a.x)
            best = max(best ?? y, y)
        }
        return best
    }
}

extension Polygon2 {
    /// The area centroid (the vertex mean for a degenerate polygon).
    var centroid: SIMD2<Double> {
        let area = signedArea
        guard abs(area) > 1e-18 else { return points.reduce(.zero, +) / Double(max(1, points.count)) }
        var sum = SIMD2<Double>.zero
        var previous = points[points.count - 1]
        for p in points {
            let cross = previous.x * p.y - p.x * previous.y
            sum += (previous + p) * cross
            previous = p
        }
        return sum / (6 * area)
    }
}
