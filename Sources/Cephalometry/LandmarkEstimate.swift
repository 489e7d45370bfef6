import Foundation
import Geometry

/// One landmark from all its picks: the robust combination and how far the picks agree.
public struct LandmarkEstimate: Sendable, Codable, Equatable {
    /// The landmark, metres, in the mesh's frame.
    public var point: SIMD3<Double>
    /// Picks given.
    public var picks: Int
    /// Indices of the picks kept; the others lay too far from the rest.
    public var used: [Int]
    /// Root-mean-square distance of the kept picks from the point, millimetres.
    public var spreadMM: Double
    /// Per lifted pick, the distance of its lifted point from the mesh's surface, millimetres
    /// (nil where not known, as for a point given in 3D).
    public var residualsMM: [Double?]
    /// Why picks could not be lifted at all (they count in `picks`, not in `used`).
    public var unusable: [String] = []

    /// A pick lies off the others when it is farther than this from their median ...
    public static let outlierFloor = 0.005
    /// ... and more than this many robust standard deviations.
    public static let outlierScale = 3.0
    /// A pick lifted farther than this from the head's surface missed the head (it landed on
    /// the background past an edge) and is set aside, unless every pick did.
    public static let offSurfaceLimit = 0.03
    /// A pick lifted farther than this from the surface, where another lies on it, is set
    /// aside too: where the fused surface crosses the pick's ray within 4 mm of its frame's
    /// depth, lifting takes the surface point, so a pick this far off is one whose frame's
    /// depth or pose disagrees with the head (a frame placed astray, a pixel on a depth edge),
    /// and two such picks cannot outvote each other by distance alone.
    public static let nearSurfaceLimit = 0.005
    /// Picks that spread more than this (millimetres) deserve a second look.
    public static let doubtfulSpreadMM = 3.0

    /// Combines `points` (with their lifting residuals in metres): the geometric median finds
    /// the picks that agree, whose mean is the estimate. Two picks cannot outvote each other,
    /// so both are kept and their spread tells how far to trust them.
    public init(points: [SIMD3<Double>], residuals: [Double?]) {
        precondition(!points.isEmpty && residuals.count == points.count, "one residual per pick, at least one pick")
        let onHead = points.indices.filter { (residuals[$0] ?? 0) <= Self.offSurfaceLimit }
        let nearSurface = points.indices.filter { (residuals[$0] ?? 0) <= Self.nearSurfaceLimit }
        let candidates = !nearSurface.isEmpty ? nearSurface : onHead.isEmpty ? Array(points.indices) : onHead
        let median = Self.geometricMedian(candidates.map { points[$0] })
        let distances = points.map { length($0 - median) }
        let scale = 1.4826 * Statistics.median(candidates.map { distances[$0] })
        let limit = max(Self.outlierFloor, Self.outlierScale * scale)
        let kept = candidates.filter { distances[$0] <= limit }
        let mean = kept.reduce(SIMD3<Double>.zero) { $0 + points[$1] } / Double(kept.count)
        let squares = kept.reduce(0.0) { $0 + lengthSquared(points[$1] - mean) }
        point = mean
        picks = points.count
        used = kept
        spreadMM = (squares / Double(kept.count)).squareRoot() * 1000
        residualsMM = residuals.map { $0.map { $0 * 1000 } }
    }

    private enum CodingKeys: String, CodingKey { case point, picks, used, spreadMM, residualsMM, unusable }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        point = try c.decode(SIMD3<Double>.self, forKey: .point)
        picks = try c.decode(Int.self, forKey: .picks)
        used = try c.decode([Int].self, forKey: .used)
        spreadMM = try c.decode(Double.self, forKey: .spreadMM)
        residualsMM = try c.decode([Double?].self, forKey: .residualsMM)
        unusable = try c.decodeIfPresent([String].self, forKey: .unusable) ?? []
    }

    /// Whether the picks spread so much that the landmark should be checked.
    public var isDoubtful: Bool { spreadMM > Self.doubtfulSpreadMM }

    /// Weiszfeld's iteration from the centroid: the point with the least summed distance.
    static func geometricMedian(_ points: [SIMD3<Double>]) -> SIMD3<Double> {
        var m = points.reduce(SIMD3<Double>.zero, +) / Double(points.count)
        for _ in 0..<100 {
            var sum = SIMD3<Double>.zero, weights = 0.0
            for p in points {
                let w = 1 / max(length(p - m), 1e-9)
                sum += p * w
                weights += w
            }
            let next = sum / weights
            if length(next - m) < 1e-9 { return next }
            m = next
        }
        return m
    }

}

private func lengthSquared(_ v: SIMD3<Double>) -> Double { (v * v).sum() }
