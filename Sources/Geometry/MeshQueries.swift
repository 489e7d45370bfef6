extension TriangleMesh {
    /// Where a ray first meets the surface: the distance along the (unit) `direction` from
    /// `origin`, or nil when it misses. Either side of a face counts, since a reconstructed
    /// surface may be open or its winding unknown.
    public func firstHit(origin: SIMD3<Double>, direction: SIMD3<Double>) -> Double? {
        var nearest: Double?
        for index in faces.indices {
            let (a, b, c) = corners(of: index)
            guard let t = Self.intersect(origin: origin, direction: direction, a, b, c), t > 0 else { continue }
            if nearest == nil || t < nearest! { nearest = t }
        }
        return nearest
    }

    /// The distance from `point` to the nearest point of the surface (infinity for an empty mesh).
    public func distance(to point: SIMD3<Double>) -> Double {
        var best = Double.infinity
        for index in faces.indices {
            let (a, b, c) = corners(of: index)
            let q = Self.closestPoint(on: (a, b, c), to: point)
            let d = q - point
            best = min(best, (d * d).sum())
        }
        return best.squareRoot()
    }

    /// Möller–Trumbore: the ray parameter of the hit with triangle abc, nil when parallel or outside.
    static func intersect(
        origin: SIMD3<Double>, direction: SIMD3<Double>, _ a: SIMD3<Double>, _ b: SIMD3<Double>, _ c: SIMD3<Double>
    ) -> Double? {
        let e1 = b - a, e2 = c - a
        let p = cross(direction, e2)
        let det = dot(e1, p)
        guard abs(det) > 1e-18 else { return nil }
        let inv = 1 / det
        let s = origin - a
        let u = dot(s, p) * inv
        guard u >= 0, u <= 1 else { return nil }
        let q = cross(s, e1)
        let v = dot(direction, q) * inv
        guard v >= 0, u + v <= 1 else { return nil }
        return dot(e2, q) * inv
    }

    /// The point of triangle abc nearest to `p` (Ericson, Real-Time Collision Detection 5.1.5).
    static func closestPoint(on triangle: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>), to p: SIMD3<Double>) -> SIMD3<Double> {
        let (a, b, c) = triangle
        let ab = b - a, ac = c - a, ap = p - a
        let d1 = dot(ab, ap), d2 = dot(ac, ap)
        if d1 <= 0, d2 <= 0 { return a }
        let bp = p - b
        let d3 = dot(ab, bp), d4 = dot(ac, bp)
        if d3 >= 0, d4 <= d3 { return b }
        let vc = d1 * d4 - d3 * d2
        if vc <= 0, d1 >= 0, d3 <= 0 { return a + ab * (d1 / (d1 - d3)) }
        let cp = p - c
        let d5 = dot(ab, cp), d6 = dot(ac, cp)
        if d6 >= 0, d5 <= d6 { return c }
        let vb = d5 * d2 - d1 * d6
        if vb <= 0, d2 >= 0, d6 <= 0 { return a + ac * (d2 / (d2 - d6)) }
        let va = d3 * d6 - d5 * d4
        if va <= 0, d4 - d3 >= 0, d5 - d6 >= 0 { return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6))) }
        let denom = 1 / (va + vb + vc)
        return a + ab * (vb * denom) + ac * (vc * denom)
    }
}
