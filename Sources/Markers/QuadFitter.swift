/// Decides whether a traced contour is a convex quadrilateral and, if so, finds its corners.
///
/// Instead of general Douglas–Peucker simplification, it looks for the four corners directly:
/// the contour point farthest from the contour's centroid is a corner, and so is the point
/// farthest from that; the two points farthest from the chords between corners are added;
/// then each corner in turn is moved to the point of its stretch of contour farthest from
/// the chord joining its two neighbours, until none moves (each move enlarges the
/// quadrilateral, so this ends at the four true corners of a convex outline). Finally every
/// contour point must lie within the tolerance of the four sides. A few passes over the
/// points, no per-point allocation.
///
/// The relaxation matters for foreshortened markers, whose two first corners are neighbours
/// rather than opposite: the third is then the point farthest from a side whose opposite side
/// runs almost parallel to it, so any point along that side may win by the staircase of its
/// pixels, and without relaxation the quadrilateral came out with a corner in the middle of a
/// side and was rejected — depending on the raster orientation of the picture.
struct QuadFitter {
    /// Largest allowed distance of a contour point from its side, as a fraction of the
    /// contour length (OpenCV's polygonalApproxAccuracyRate).
    var accuracyRate: Double
    /// The allowed distance never drops below this many pixels, so tiny markers, whose
    /// pixelated sides wobble by a pixel, still pass.
    var minTolerance: Double
    /// Shortest side, as a fraction of the contour length.
    var minSideRate: Double

    /// Corners clockwise on screen, or nil when the contour is not a convex quadrilateral.
    func fit(_ points: UnsafeBufferPointer<SIMD2<Int32>>) -> [SIMD2<Double>]? {
        let n = points.count
        guard n >= 8 else { return nil }
        // Start from the centroid, not from wherever the tracer began the contour, so the
        // corners found do not depend on the raster's orientation.
        var sum = SIMD2<Int64>.zero
        for point in points { sum &+= SIMD2(Int64(point.x), Int64(point.y)) }
        let centroid = SIMD2(Int32(truncatingIfNeeded: sum.x / Int64(n)), Int32(truncatingIfNeeded: sum.y / Int64(n)))
        let a = farthest(points, from: centroid)
        let b = farthest(points, from: points[a])
        guard a != b else { return nil }
        // Both are corners, but for a strongly foreshortened marker they may be neighbours
        // rather than opposite; so the other two are added one at a time, each time the point
        // farthest from its chord over all chains (two Douglas–Peucker steps).
        var order = [a, b]
        for _ in 0..<2 {
            var best: (chain: Int, index: Int, distance: Double)?
            for k in order.indices {
                guard let found = farthestFromChord(points, from: order[k], to: order[(k + 1) % order.count]) else { continue }
                if found.distance > (best?.distance ?? 0) { best = (k, found.index, found.distance) }
            }
            guard let best else { return nil }
            order.insert(best.index, at: best.chain + 1)
        }
        let tolerance = max(minTolerance, accuracyRate * Double(n))
        func fits(_ order: [Int]) -> Bool {
            (0..<4).allSatisfy { fitsChord(points, from: order[$0], to: order[($0 + 1) % 4], tolerance: tolerance) }
        }
        // The relaxed corners are the outline's; when a bump (occlusion, a blurred neighbour)
        // draws a relaxed corner onto itself so that the sides no longer fit, the corners as
        // first found may still fit.
        var relaxed = order
        relax(points, corners: &relaxed)
        if fits(relaxed) {
            order = relaxed
        } else if !fits(order) {
            return nil
        }
        var corners = order.map { SIMD2<Double>(Double(points[$0].x), Double(points[$0].y)) }
        guard isConvex(corners) else { return nil }
        let minSide = minSideRate * Double(n)
        for k in 0..<4 {
            let d = corners[(k + 1) % 4] - corners[k]
            if (d * d).sum() < minSide * minSide { return nil }
        }
        if cross(corners[1] - corners[0], corners[2] - corners[0]) < 0 {
            corners.swapAt(1, 3)
        }
        // Start at the corner nearest the image's top-left, so that a code that looks the
        // same after a half turn still gets a reproducible orientation.
        let first = (0..<4).min { (corners[$0].x + corners[$0].y) < (corners[$1].x + corners[$1].y) } ?? 0
        corners = (0..<4).map { corners[($0 + first) % 4] }
        // Contour points are the centres of the outermost dark pixels; the edge itself lies
        // about half a pixel further out.
        let centre = corners.reduce(.zero, +) / 4
        return corners.map { corner in
            let out = corner - centre
            let length = (out * out).sum().squareRoot()
            return length > 0 ? corner + out * (0.7 / length) : corner
        }
    }

    /// Moves each corner to the point between its neighbours farthest from the chord joining
    /// them, while any corner moves. Every move strictly enlarges the quadrilateral's area, so
    /// it ends; a few passes suffice in practice.
    private func relax(_ points: UnsafeBufferPointer<SIMD2<Int32>>, corners order: inout [Int]) {
        for _ in 0..<8 {
            var moved = false
            for k in 0..<4 {
                let previous = order[(k + 3) % 4], next = order[(k + 1) % 4]
                guard let found = farthestFromChord(points, from: previous, to: next), found.index != order[k] else { continue }
                let p = points[previous], q = points[next], current = points[order[k]]
                let dx = Int64(q.x - p.x), dy = Int64(q.y - p.y)
                let now = abs(dx * Int64(current.y - p.y) - dy * Int64(current.x - p.x))
                let candidate = points[found.index]
                let better = abs(dx * Int64(candidate.y - p.y) - dy * Int64(candidate.x - p.x))
                if better > now {
                    order[k] = found.index
                    moved = true
                }
            }
            if !moved { return }
        }
    }

    private func farthest(_ points: UnsafeBufferPointer<SIMD2<Int32>>, from origin: SIMD2<Int32>) -> Int {
        var best = 0
        var bestDistance: Int32 = -1
        for i in 0..<points.count {
            let d = points[i] &- origin
            let distance = d.x &* d.x &+ d.y &* d.y
            if distance > bestDistance {
                bestDistance = distance
                best = i
            }
        }
        return best
    }

    /// The point strictly between `from` and `to` (walking forward around the contour) that
    /// lies farthest from the chord joining them, with that distance in pixels; nil when
    /// there is no point between them or all lie on the chord.
    private func farthestFromChord(
        _ points: UnsafeBufferPointer<SIMD2<Int32>>, from: Int, to: Int
    ) -> (index: Int, distance: Double)? {
        let n = points.count
        let p = points[from], q = points[to]
        let dx = Int64(q.x - p.x), dy = Int64(q.y - p.y)
        var best: Int?
        var bestDistance: Int64 = 0
        var i = from + 1 == n ? 0 : from + 1
        while i != to {
            let r = points[i]
            let distance = abs(dx * Int64(r.y - p.y) - dy * Int64(r.x - p.x))
            if distance > bestDistance {
                bestDistance = distance
                best = i
            }
            i = i + 1 == n ? 0 : i + 1
        }
        guard let best else { return nil }
        let length = Double(dx * dx + dy * dy).squareRoot()
        return (best, length > 0 ? Double(bestDistance) / length : 0)
    }

    private func fitsChord(_ points: UnsafeBufferPointer<SIMD2<Int32>>, from: Int, to: Int, tolerance: Double) -> Bool {
        let n = points.count
        let p = points[from], q = points[to]
        let dx = Double(q.x - p.x), dy = Double(q.y - p.y)
        let length = (dx * dx + dy * dy).squareRoot()
        guard length > 0 else { return false }
        let limit = tolerance * length
        var i = from
        while i != to {
            let r = points[i]
            let distance = abs(dx * Double(r.y - p.y) - dy * Double(r.x - p.x))
            if distance > limit { return false }
            i = i + 1 == n ? 0 : i + 1
        }
        return true
    }

    private func isConvex(_ corners: [SIMD2<Double>]) -> Bool {
        var sign = 0.0
        for k in 0..<4 {
            let turn = cross(corners[(k + 1) % 4] - corners[k], corners[(k + 2) % 4] - corners[(k + 1) % 4])
            if turn == 0 { return false }
            if sign == 0 { sign = turn } else if (turn > 0) != (sign > 0) { return false }
        }
        return true
    }
}

/// The z component of the cross product of two plane vectors.
@inline(__always)
func cross(_ u: SIMD2<Double>, _ v: SIMD2<Double>) -> Double { u.x * v.y - u.y * v.x }
