/// An infinite line in the plane, as a point on it and a unit direction.
public struct Line2: Sendable, Hashable {
    /// A point on the line.
    public var point: SIMD2<Double>
    /// Unit direction.
    public var direction: SIMD2<Double>

    /// A line through `point` along `direction` (normalised here; must not be zero).
    public init(point: SIMD2<Double>, direction: SIMD2<Double>) {
        let length = (direction * direction).sum().squareRoot()
        precondition(length > 0, "a line needs a non-zero direction")
        self.point = point
        self.direction = direction / length
    }

    /// The line through two distinct points.
    public init(through a: SIMD2<Double>, _ b: SIMD2<Double>) {
        self.init(point: a, direction: b - a)
    }

    /// Unit normal, the direction turned a quarter to the left in x-right, y-down images.
    public var normal: SIMD2<Double> { SIMD2(direction.y, -direction.x) }

    /// Signed distance of `p` from the line, positive on the side `normal` points to.
    @inlinable
    public func signedDistance(to p: SIMD2<Double>) -> Double {
        let d = p - point
        return d.x * direction.y - d.y * direction.x
    }

    /// Where two lines cross, or nil when they are parallel.
    public func intersection(with other: Line2) -> SIMD2<Double>? {
        let cross = direction.x * other.direction.y - direction.y * other.direction.x
        guard abs(cross) > 1e-12 else { return nil }
        let d = other.point - point
        let t = (d.x * other.direction.y - d.y * other.direction.x) / cross
        return point + t * direction
    }

    /// The total-least-squares line through weighted points (orthogonal distances), or nil
    /// when there are fewer than two points of positive weight or they all coincide.
    public static func fit(points: [SIMD2<Double>], weights: [Double]? = nil) -> Line2? {
        if let weights { precondition(weights.count == points.count, "one weight per point") }
        var total = 0.0
        var centroid = SIMD2<Double>.zero
        for (i, p) in points.enumerated() {
            let w = weights?[i] ?? 1
            total += w
            centroid += w * p
        }
        guard total > 0 else { return nil }
        centroid /= total
        var sxx = 0.0, sxy = 0.0, syy = 0.0
        for (i, p) in points.enumerated() {
            let w = weights?[i] ?? 1
            let d = p - centroid
            sxx += w * d.x * d.x
            sxy += w * d.x * d.y
            syy += w * d.y * d.y
        }
        guard sxx + syy > 0 else { return nil }
        // The principal axis of the 2x2 scatter matrix: the eigenvector of its larger
        // eigenvalue, taken from whichever row of (S - λI) is better conditioned.
        let half = 0.5 * (sxx - syy)
        let largest = 0.5 * (sxx + syy) + (half * half + sxy * sxy).squareRoot()
        let a = SIMD2(sxy, largest - sxx)
        let b = SIMD2(largest - syy, sxy)
        let direction = (a * a).sum() >= (b * b).sum() ? a : b
        guard (direction * direction).sum() > 0 else { return Line2(point: centroid, direction: SIMD2(1, 0)) }
        return Line2(point: centroid, direction: direction)
    }
}
