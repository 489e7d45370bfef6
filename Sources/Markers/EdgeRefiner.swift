import Geometry

/// Refines a marker's corners to sub-pixel accuracy by fitting a straight line to each of its
/// four outer edges and intersecting neighbouring lines.
///
/// Across each edge, intensity profiles are taken; the crossing in a profile is the centroid
/// of its dark-to-light gradient, which is a linear function of the pixels and so exact for
/// an anti-aliased edge and unbiased under symmetric blur. Fitting whole edges instead of a
/// window at each corner (as cornerSubPix does) keeps small markers accurate: a 12 px marker
/// has a dozen usable pixels per edge but hardly any corner neighbourhood.
///
/// Profiles are placed per border cell through the perspective map of the current corners,
/// so they spread evenly over the marker's edge however it is tilted.
struct EdgeRefiner {
    /// Fit passes; each re-takes the profiles across the previous pass's lines.
    var iterations: Int = 2
    /// Weakest rise between neighbouring profile samples (gray levels) that counts as an edge.
    var minGradient: Double = 3

    /// Refined corners in the same order, or nil when an edge could not be measured or a
    /// corner would move implausibly far. `cells` is the grid size including the border.
    func refine(_ image: GrayImageView, corners initial: [SIMD2<Double>], cells: Int) -> [SIMD2<Double>]? {
        var corners = initial
        let side = (0..<4).map { k in
            let d = initial[(k + 1) % 4] - initial[k]
            return (d * d).sum().squareRoot()
        }
        let cellSize = side.reduce(0, +) / Double(4 * cells)
        let halfWindow = Int(min(4, max(2, (0.5 * cellSize).rounded())))
        let perCell = max(1, min(6, Int(cellSize)))
        for _ in 0..<iterations {
            guard let map = try? Homography.unitSquare(to: corners) else { return nil }
            var lines: [Line2] = []
            lines.reserveCapacity(4)
            for k in 0..<4 {
                guard
                    let line = fitEdge(
                        image, edge: k, map: map, corners: corners, cells: cells, perCell: perCell,
                        halfWindow: halfWindow)
                else { return nil }
                lines.append(line)
            }
            var refined: [SIMD2<Double>] = []
            refined.reserveCapacity(4)
            for k in 0..<4 {
                guard let corner = lines[(k + 3) % 4].intersection(with: lines[k]) else { return nil }
                refined.append(corner)
            }
            corners = refined
        }
        let limit = max(1.5, 0.2 * (side.min() ?? 0))
        for k in 0..<4 {
            let d = corners[k] - initial[k]
            if (d * d).sum() > limit * limit { return nil }
        }
        return corners
    }

    /// Where `t` along edge `k` lies in the unit square of the marker.
    @inline(__always)
    private func unitPoint(edge k: Int, _ t: Double) -> SIMD2<Double> {
        switch k {
        case 0: SIMD2(t, 0)
        case 1: SIMD2(1, t)
        case 2: SIMD2(1 - t, 1)
        default: SIMD2(0, 1 - t)
        }
    }

    /// The line through the measured crossings of edge `k`, whose outside (the light quiet
    /// zone) lies to the left of the direction corner k → corner k+1 on screen.
    private func fitEdge(
        _ image: GrayImageView, edge k: Int, map: Homography, corners: [SIMD2<Double>], cells: Int,
        perCell: Int, halfWindow: Int
    ) -> Line2? {
        let along = corners[(k + 1) % 4] - corners[k]
        let length = (along * along).sum().squareRoot()
        guard length > 2 else { return nil }
        let normal = SIMD2(along.y, -along.x) / length
        // The corner cells are skipped: there the neighbouring edge bends the profiles.
        let chosen = 1..<(cells - 1)
        var points: [SIMD2<Double>] = []
        var weights: [Double] = []
        points.reserveCapacity(chosen.count * perCell)
        weights.reserveCapacity(chosen.count * perCell)
        let window = 2 * halfWindow + 1
        withUnsafeTemporaryAllocation(of: Double.self, capacity: window) { profile in
            for cell in chosen {
                for s in 0..<perCell {
                    let t = (Double(cell) + (Double(s) + 0.5) / Double(perCell)) / Double(cells)
                    let base = map.apply(unitPoint(edge: k, t))
                    for j in 0..<window {
                        let p = base + Double(j - halfWindow) * normal
                        profile[j] = image.bilinear(p.x, p.y)
                    }
                    // The strongest rise, then the run of rising differences around it.
                    var peak = -1
                    var peakValue = minGradient
                    for j in 0..<(window - 1) where profile[j + 1] - profile[j] > peakValue {
                        peakValue = profile[j + 1] - profile[j]
                        peak = j
                    }
                    guard peak >= 0 else { continue }
                    var first = peak, last = peak
                    while first > 0 && profile[first] - profile[first - 1] > 0 { first -= 1 }
                    while last < window - 2 && profile[last + 2] - profile[last + 1] > 0 { last += 1 }
                    var sum = 0.0, moment = 0.0
                    for j in first...last {
                        let rise = profile[j + 1] - profile[j]
                        sum += rise
                        moment += rise * (Double(j - halfWindow) + 0.5)
                    }
                    points.append(base + (moment / sum) * normal)
                    weights.append(sum)
                }
            }
        }
        guard points.count >= 3, var line = Line2.fit(points: points, weights: weights) else { return nil }
        // One pass without the crossings that disagree with the first fit (occlusion, a
        // neighbouring marker's edge).
        var kept = 0
        for i in points.indices {
            if abs(line.signedDistance(to: points[i])) > 0.75 { weights[i] = 0 } else { kept += 1 }
        }
        if kept >= 3, kept < points.count, let refit = Line2.fit(points: points, weights: weights) {
            line = refit
        }
        return line
    }
}
