/// A plane-to-plane projective map, `p' ~ H p` in homogeneous coordinates.
public struct Homography: Sendable, Hashable {
    /// The 3x3 matrix, defined up to scale.
    public var matrix: Matrix3

    /// Wraps a matrix.
    public init(_ matrix: Matrix3) { self.matrix = matrix }

    /// Maps a point; points on the line at infinity come back with infinite coordinates.
    public func apply(_ p: SIMD2<Double>) -> SIMD2<Double> {
        let q = matrix * SIMD3(p.x, p.y, 1)
        return SIMD2(q.x / q.z, q.y / q.z)
    }

    /// The inverse map, or nil when the homography is degenerate.
    public var inverse: Homography? { matrix.inverse.map(Homography.init) }

    /// The homography taking the unit square (0,0), (1,0), (1,1), (0,1) onto `corners`, in
    /// that order. Closed form (Heckbert), so it is cheap enough for per-candidate use;
    /// throws when three corners are collinear.
    public static func unitSquare(to corners: [SIMD2<Double>]) throws -> Homography {
        guard corners.count == 4 else { throw GeometryError.notEnoughPoints(needed: 4, got: corners.count) }
        let p0 = corners[0], p1 = corners[1], p2 = corners[2], p3 = corners[3]
        let s = p0 - p1 + p2 - p3
        let d1 = p1 - p2, d2 = p3 - p2
        let det = d1.x * d2.y - d2.x * d1.y
        let scale = max(1, (d1 * d1).sum() + (d2 * d2).sum())
        guard abs(det) > 1e-12 * scale else { throw GeometryError.singular }
        let g = (s.x * d2.y - d2.x * s.y) / det
        let h = (d1.x * s.y - s.x * d1.y) / det
        return Homography(
            Matrix3(
                rows: SIMD3(p1.x - p0.x + g * p1.x, p3.x - p0.x + h * p3.x, p0.x),
                SIMD3(p1.y - p0.y + g * p1.y, p3.y - p0.y + h * p3.y, p0.y),
                SIMD3(g, h, 1)))
    }

    /// Fits the homography mapping `source[i]` to `target[i]` by the normalised direct linear
    /// transform: exact for four points, least squares for more. Normalising both point sets
    /// (centroid at the origin, mean distance √2) keeps the solve well conditioned.
    public static func fit(from source: [SIMD2<Double>], to target: [SIMD2<Double>]) throws -> Homography {
        guard source.count == target.count, source.count >= 4 else {
            throw GeometryError.notEnoughPoints(needed: 4, got: min(source.count, target.count))
        }
        let sourceNorm = try normalisation(source)
        let targetNorm = try normalisation(target)
        let s = source.map { Homography(sourceNorm).apply($0) }
        let t = target.map { Homography(targetNorm).apply($0) }
        // Each pair gives two rows of A h = b with h33 fixed to 1, which is safe after
        // normalisation because the origin then maps to a finite point.
        var a: [Double] = []
        var b: [Double] = []
        a.reserveCapacity(16 * s.count)
        for (p, q) in zip(s, t) {
            a += [p.x, p.y, 1, 0, 0, 0, -p.x * q.x, -p.y * q.x]
            b.append(q.x)
            a += [0, 0, 0, p.x, p.y, 1, -p.x * q.y, -p.y * q.y]
            b.append(q.y)
        }
        let h = try LinearSolver.leastSquares(a, b, columns: 8)
        let normalised = Matrix3(rowMajor: h + [1])
        guard let targetInverse = targetNorm.inverse else { throw GeometryError.singular }
        let m = targetInverse * normalised * sourceNorm
        let last = m[2, 2]
        return Homography(abs(last) > 1e-300 ? Matrix3(rowMajor: m.entries.map { $0 / last }) : m)
    }

    private static func normalisation(_ points: [SIMD2<Double>]) throws -> Matrix3 {
        let centroid = points.reduce(SIMD2<Double>.zero, +) / Double(points.count)
        let meanDistance =
            points.reduce(0.0) { acc, p in
                let d = p - centroid
                return acc + (d.x * d.x + d.y * d.y).squareRoot()
            } / Double(points.count)
        guard meanDistance > 0 else { throw GeometryError.singular }
        let k = 2.0.squareRoot() / meanDistance
        return Matrix3(rowMajor: [k, 0, -k * centroid.x, 0, k, -k * centroid.y, 0, 0, 1])
    }
}
