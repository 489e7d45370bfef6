extension Polygon2 {
    /// The part of the polygon where `dot(normal, p) ≥ offset` (Sutherland–Hodgman).
    ///
    /// A non-convex polygon cut into several pieces comes back as one polygon joined by
    /// zero-width edges along the cutting line; its area is still exactly the pieces' total,
    /// which is all the volume measures need.
    public func clipped(keeping normal: SIMD2<Double>, offset: Double = 0) -> Polygon2 {
        guard let last = points.last else { return self }
        var kept: [SIMD2<Double>] = []
        kept.reserveCapacity(points.count + 2)
        var previous = last
        var previousSide = (normal * previous).sum() - offset
        for p in points {
            let side = (normal * p).sum() - offset
            if (side >= 0) != (previousSide >= 0) {
                let t = previousSide / (previousSide - side)
                kept.append(previous + (p - previous) * t)
            }
            if side >= 0 { kept.append(p) }
            previous = p
            previousSide = side
        }
        return Polygon2(kept)
    }

    /// Area (unsigned) of the part inside the quarter plane where `dot(first, p) ≥ 0` and
    /// `dot(second, p) ≥ 0`.
    public func area(inQuarter first: SIMD2<Double>, _ second: SIMD2<Double>) -> Double {
        abs(clipped(keeping: first).clipped(keeping: second).signedArea)
    }
}
