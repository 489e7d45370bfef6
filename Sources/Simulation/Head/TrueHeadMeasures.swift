import Foundation
import Geometry

/// The exact clinical measures of a simulated head, in clinicians' units: the truth that
/// reconstruction and Cephalometry are judged against.
///
/// It keeps its own formulas on purpose: they work on the head model's analytic outline (the
/// diagonals and perimeter of a closed-form curve), not on a sliced mesh, so a mistake in
/// Cephalometry's slicing or chords cannot hide by being made on both sides of a comparison.
public struct TrueHeadMeasures: Sendable, Codable, Equatable {
    /// Cranial vault asymmetry index, percent: |A − B| / max(A, B) × 100.
    public var cvai: Double
    /// Cranial vault asymmetry |A − B|, millimetres.
    public var cvaMM: Double
    /// Cranial index, width / length × 100.
    public var ci: Double
    /// Perimeter of the outline, millimetres.
    public var circumferenceMM: Double
    /// Diagonal A, front-left to back-right at 30° from the mid-sagittal axis, mm.
    public var diagonalAMM: Double
    /// Diagonal B, front-right to back-left, mm.
    public var diagonalBMM: Double
    /// Greatest front-to-back extent, mm.
    public var lengthMM: Double
    /// Greatest side-to-side extent, mm.
    public var widthMM: Double

    /// Measures from the two diagonals, the two extents and the perimeter, all in metres.
    public init(diagonalA: Double, diagonalB: Double, length: Double, width: Double, perimeter: Double) {
        diagonalAMM = diagonalA * 1000
        diagonalBMM = diagonalB * 1000
        cvaMM = abs(diagonalA - diagonalB) * 1000
        cvai = abs(diagonalA - diagonalB) / max(diagonalA, diagonalB) * 100
        lengthMM = length * 1000
        widthMM = width * 1000
        ci = width / length * 100
        circumferenceMM = perimeter * 1000
    }

    /// Measures a closed outline in the head's transverse plane (x right, y forward, metres),
    /// with the diagonals drawn through `centre`, the middle of the ear-to-ear line.
    public init(outline: Polygon2, centre: SIMD2<Double> = .zero) {
        func diagonal(_ degrees: Double) -> Double {
            let a = degrees * Double.pi / 180
            let u = SIMD2(cos(a), sin(a))
            return (outline.farthestHit(from: centre, direction: u) ?? 0)
                + (outline.farthestHit(from: centre, direction: -u) ?? 0)
        }
        // A's front end is 30° from straight ahead toward the infant's left (−x): 120°.
        self.init(
            diagonalA: diagonal(120), diagonalB: diagonal(60),
            length: outline.extent(along: SIMD2(0, 1)), width: outline.extent(along: SIMD2(1, 0)),
            perimeter: outline.perimeter)
    }
}
