import Foundation
import Geometry

extension SliceContour {
    /// Deepest a part of the outline may lie behind a nearer part, seen from the centre, before
    /// it is cut away (metres). A skull's outline is star-shaped about the tragion midpoint, and
    /// a scan's noise folds it by tenths of a millimetre at most.
    static let shadowDepth = 0.001
    /// Widest an ear's cross-section is along the outline (metres): the helix and the upper
    /// concha of an adult's ear, cut above the tragion.
    static let earWidth = 0.030
    /// Least an ear stands out of the skin beneath it (metres); a skull has no bump this high
    /// and this narrow at its sides.
    static let earHeight = 0.003
    /// Where the skin rises into the ear (metres): its flanks are cut from this height on.
    static let earFlank = 0.0003
    /// How far either side of the tragion line an ear is looked for (radians).
    static let earSide = Double.pi / 4
    /// How much outline on either side of an ear the skin beneath it is fitted to (metres):
    /// long enough to follow the skin's curve, short enough that a quadratic does.
    static let skinSpan = 0.012
    /// Nearest the side of a head lies to the tragion midpoint (metres).
    static let minimumSide = 0.02
    /// Rays cast from the centre to see the outline.
    static let rayCount = 1440

    /// The outline without the ears: along each direction from `centre`, the first crossing
    /// only, and at the sides, where an ear stands out narrower than `earWidth` and higher than
    /// `earHeight`, the skin beneath it bridged by a quadratic in the angle through the skin
    /// on either side.
    ///
    /// On a real head the slice of longest outline can pass through the tops of the ears (an
    /// adult's reach 25–30 mm above the tragion). The loop then runs out round the ear and
    /// back: on an average adult head (the ICT Face Model's) the outline through the ears'
    /// tops was 70 mm longer and 26 mm wider than the skull's, and it was the one measured. No
    /// tape or calliper round the head measures an ear. An outline with no ear and nothing
    /// hidden is returned as it is, point for point.
    func withoutEars(around centre: SIMD2<Double>) -> SliceContour {
        let points = polygon.points
        guard points.count > 2 else { return self }
        let step = 2 * Double.pi / Double(Self.rayCount)
        let bins = segmentBins(points, centre: centre, step: step)
        var hits = [Crossing?](repeating: nil, count: Self.rayCount)
        var reach = [Double?](repeating: nil, count: Self.rayCount)
        var deepest = 0.0
        for k in 0..<Self.rayCount {
            guard let found = crossings(points, bins[k], from: centre, angle: Self.angle(k)) else { continue }
            deepest = max(deepest, found.far - found.near.distance)
            hits[k] = found.near
            reach[k] = found.far
        }
        let radii = hits.map { $0?.distance }
        // Ears are found on the outline's farthest reach, where all of an ear shows: seen from
        // the centre, one folded back shows only a millimetre or two of its face through its root.
        let ears = Self.earRuns(reach, step: step)
        guard deepest > Self.shadowDepth || !ears.isEmpty else { return self }

        var bridged = [Double?](repeating: nil, count: Self.rayCount)
        for found in ears {
            let run = Self.widened(found, reach: reach, radii: radii)
            for (k, r) in Self.skinBeneath(run, radii: radii) { bridged[k] = r }
        }
        var seen: [(angle: Double, point: SIMD2<Double>, segment: Int, corner: Bool)] = []
        for k in 0..<Self.rayCount {
            let a = Self.angle(k), direction = SIMD2(cos(a), sin(a))
            if let r = bridged[k] {
                seen.append((a, centre + direction * r, -1, false))
            } else if let hit = hits[k] {
                seen.append((a, centre + direction * hit.distance, hit.segment, false))
            }
        }
        for (i, p) in points.enumerated() {
            let offset = p - centre
            let r = distance(p, centre)
            guard r > 0 else { continue }
            let a = atan2(offset.y, offset.x)
            let k = min(Self.rayCount - 1, max(0, Int(((a + Double.pi) / step).rounded(.down))))
            guard bridged[k] == nil, let found = crossings(points, bins[k], from: centre, angle: a),
                found.near.distance >= r - 1e-9
            else { continue }
            seen.append((a, p, i, true))
        }
        seen.sort { $0.angle < $1.angle }
        var bridges: [Int] = []
        for j in seen.indices {
            let a = seen[j], b = seen[(j + 1) % seen.count]
            // A piece of a bridged hole stays a bridge (a corner starts its segment and ends the
            // one before); the skin beneath an ear is not a hole.
            guard a.segment >= 0 else { continue }
            let endsOnIt = b.segment == a.segment || (b.corner && b.segment == (a.segment + 1) % points.count)
            if endsOnIt, isBridge(a.segment) { bridges.append(j) }
        }
        return SliceContour(polygon: Polygon2(seen.map(\.point)), bridges: bridges)
    }

    private static func angle(_ k: Int) -> Double { -Double.pi + (Double(k) + 0.5) * 2 * Double.pi / Double(rayCount) }

    /// The rays, as runs of consecutive indices (possibly past the last, wrapping), where an
    /// ear stands out: the outline minus its morphological opening in the angle (a window
    /// `earWidth` long) rises above `earHeight`, taken from where it rises above `earFlank`.
    static func earRuns(_ radii: [Double?], step: Double) -> [ClosedRange<Int>] {
        let n = radii.count
        func r(_ k: Int) -> Double? { radii[((k % n) + n) % n] }
        var runs: [ClosedRange<Int>] = []
        for side in [0.0, Double.pi] {
            let centre = Int(((side + Double.pi) / step).rounded()), reach = Int((earSide / step).rounded())
            let known = ((centre - reach)...(centre + reach)).compactMap(r).sorted()
            // A head's side lies 30 mm or more from the tragion midpoint; nearer, the outline is
            // no head's (a test's, or a mesh in the wrong unit), and nothing is cut.
            guard known.count > reach, known[known.count / 2] > minimumSide else { continue }
            let half = Int((earWidth / 2 / known[known.count / 2] / step).rounded(.up))
            // Over rays centre - reach - 2·half ... centre + reach + 2·half, missing ones as NaN.
            let first = centre - reach - 2 * half
            let values = (first...(centre + reach + 2 * half)).map { r($0) ?? .nan }
            let eroded = Self.slide(values, half: half, keepsLeast: true)
            let opened = Self.slide(eroded, half: half, keepsLeast: false)
            var excess: [Int: Double] = [:]
            for k in (centre - reach)...(centre + reach) where !values[k - first].isNaN && !opened[k - first].isNaN {
                excess[k] = values[k - first] - opened[k - first]
            }
            var k = centre - reach
            while k <= centre + reach {
                guard (excess[k] ?? 0) > earFlank else {
                    k += 1
                    continue
                }
                var end = k
                while end + 1 <= centre + reach, (excess[end + 1] ?? 0) > earFlank { end += 1 }
                if (k...end).contains(where: { (excess[$0] ?? 0) > earHeight }) { runs.append(k...end) }
                k = end + 1
            }
        }
        return runs
    }

    /// The least (`keepsLeast`) or the greatest of the known values within `half` of each
    /// index; NaN where none is known or the window runs past the ends.
    ///
    /// A queue of the window's candidates keeps this linear in the count: the outline is slid
    /// over twice per side for every slice the measurement and its intervals try.
    static func slide(_ values: [Double], half: Int, keepsLeast: Bool) -> [Double] {
        var result = [Double](repeating: .nan, count: values.count)
        guard half >= 0, values.count > 2 * half else { return result }
        // Indices of known values, their values monotonic from the kept one at `head`.
        var queue: [Int] = []
        queue.reserveCapacity(values.count)
        var head = 0
        for j in values.indices {
            let value = values[j]
            if !value.isNaN {
                while queue.count > head, let last = queue.last,
                    keepsLeast ? value <= values[last] : value >= values[last]
                {
                    queue.removeLast()
                }
                queue.append(j)
            }
            let centre = j - half
            guard centre >= half else { continue }
            while head < queue.count, queue[head] < centre - half { head += 1 }
            if head < queue.count { result[centre] = values[queue[head]] }
        }
        return result
    }

    /// `run` widened by the rays beside it whose farthest reach stands more than `earFlank`
    /// out of the skin bridged beneath it. The opening finds an ear by its height over the
    /// outline's lowest within a window, and at the head's side the outline curves up within
    /// one: the root of an ear folded back, a millimetre out, is lower than the skin 25° away.
    static func widened(_ run: ClosedRange<Int>, reach: [Double?], radii: [Double?]) -> ClosedRange<Int> {
        let n = reach.count
        let limit = Int((earSide / (2 * Double.pi / Double(n))).rounded())
        var run = run
        for _ in 0..<3 {
            let skin = Dictionary(uniqueKeysWithValues: skinBeneath(run.lowerBound - limit...run.upperBound + limit, within: run, radii: radii))
            var low = run.lowerBound, high = run.upperBound
            func out(_ k: Int) -> Bool {
                guard let r = reach[((k % n) + n) % n], let s = skin[((k % n) + n) % n] else { return false }
                return r - s > earFlank
            }
            while low > run.lowerBound - limit, out(low - 1) { low -= 1 }
            while high < run.upperBound + limit, out(high + 1) { high += 1 }
            if low...high == run { break }
            run = low...high
        }
        return run
    }

    /// The skin's radius along each ray of `run`, from a quadratic in the angle fitted to the
    /// outline over `skinSpan` on either side of it; nothing when too little skin is there.
    static func skinBeneath(_ run: ClosedRange<Int>, radii: [Double?]) -> [(Int, Double)] {
        skinBeneath(run, within: run, radii: radii)
    }

    /// The same quadratic, fitted beside `run`, along each ray of `rays`.
    static func skinBeneath(_ rays: ClosedRange<Int>, within run: ClosedRange<Int>, radii: [Double?]) -> [(Int, Double)] {
        let n = radii.count
        func r(_ k: Int) -> Double? { radii[((k % n) + n) % n] }
        let step = 2 * Double.pi / Double(n)
        guard let near = r(run.lowerBound - 1) ?? r(run.upperBound + 1), near > minimumSide else { return [] }
        let margin = Int((skinSpan / near / step).rounded(.up))
        let sides = Array((run.lowerBound - margin)..<run.lowerBound) + Array((run.upperBound + 1)...(run.upperBound + margin))
        let samples = sides.compactMap { k in r(k).map { (Double(k - run.lowerBound) * step, $0) } }
        guard samples.count >= 6, let fit = Quadratic(fitting: samples) else { return [] }
        return rays.map { k in (((k % n) + n) % n, fit.value(Double(k - run.lowerBound) * step)) }
    }

    /// y = a + b x + c x², by least squares.
    struct Quadratic {
        var a: Double, b: Double, c: Double

        init?(fitting samples: [(x: Double, y: Double)]) {
            var m = [[Double]](repeating: [Double](repeating: 0, count: 4), count: 3)
            for (x, y) in samples {
                let powers = [1, x, x * x]
                for i in 0..<3 {
                    for j in 0..<3 { m[i][j] += powers[i] * powers[j] }
                    m[i][3] += powers[i] * y
                }
            }
            for column in 0..<3 {
                guard let pivot = (column..<3).max(by: { abs(m[$0][column]) < abs(m[$1][column]) }),
                    abs(m[pivot][column]) > 1e-18
                else { return nil }
                m.swapAt(column, pivot)
                for row in 0..<3 where row != column {
                    let f = m[row][column] / m[column][column]
                    for j in column..<4 { m[row][j] -= f * m[column][j] }
                }
            }
            a = m[0][3] / m[0][0]
            b = m[1][3] / m[1][1]
            c = m[2][3] / m[2][2]
        }

        func value(_ x: Double) -> Double { a + b * x + c * x * x }
    }

    private struct Crossing {
        var distance: Double
        var segment: Int
    }

    /// For each ray's sector, the segments whose angular span reaches into it.
    private func segmentBins(_ points: [SIMD2<Double>], centre: SIMD2<Double>, step: Double) -> [[Int]] {
        var bins = [[Int]](repeating: [], count: Self.rayCount)
        let count = Self.rayCount
        for i in points.indices {
            let a = points[i] - centre, b = points[(i + 1) % points.count] - centre
            let start = atan2(a.y, a.x)
            var sweep = atan2(b.y, b.x) - start
            if sweep > Double.pi { sweep -= 2 * Double.pi }
            if sweep < -Double.pi { sweep += 2 * Double.pi }
            let low = min(start, start + sweep), high = max(start, start + sweep)
            let first = Int(((low + Double.pi) / step).rounded(.down)) - 1
            let last = Int(((high + Double.pi) / step).rounded(.down)) + 1
            for k in first...last { bins[((k % count) + count) % count].append(i) }
        }
        return bins
    }

    /// The nearest crossing of the ray from `centre` at `angle` with the given segments, and
    /// the distance of the farthest.
    private func crossings(
        _ points: [SIMD2<Double>], _ segments: [Int], from centre: SIMD2<Double>, angle: Double
    )
        -> (near: Crossing, far: Double)?
    {
        let direction = SIMD2(cos(angle), sin(angle))
        var near: Crossing?
        var far = -Double.infinity
        for i in segments {
            // A ray through a corner meets both its segments, however the sums round.
            guard let t = Self.crossing(from: centre, along: direction, points[i], points[(i + 1) % points.count], slack: 1e-12)
            else { continue }
            if t < near?.distance ?? .infinity { near = Crossing(distance: t, segment: i) }
            far = max(far, t)
        }
        guard let near else { return nil }
        return (near, far)
    }
}
