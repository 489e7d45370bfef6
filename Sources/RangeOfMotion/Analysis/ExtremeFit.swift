import Foundation
import Geometry

/// The end of a movement read from a fit of the angle over time around it, right whether the
/// patient holds the end or turns straight back.
///
/// Near its end a knee slows down: the angle leaves the end quadratically in time, after
/// resting there for a while or not at all. The model is that shape, a parabola with its top
/// cut flat: `peak − curvature × max(0, |t − top| − hold)²`, with one top time per visit of
/// the end, and peak, curvature and hold shared by the visits that reach it. With no hold it is
/// a parabola through the turning point, where the mean of the frames near the extreme lies
/// inside the peak by design; with a hold it is the held angle. At 3 frames per second a
/// turning end falls between frames, and only such a fit reads past them. The turning and the
/// best held reading are weighed by how well each explains the frames (`choose`).
struct ExtremeFit {
    /// One passed frame: seconds, the angle read and the smoothed angle, turned so that the
    /// extreme sought is the largest.
    struct Sample {
        var time: Double
        var angle: Double
        var smoothed: Double
    }

    /// The fitted end, the standard error of its angle from the frames' scatter about the
    /// fit, and the frames it rests on.
    struct Result: Equatable {
        var peak: Double
        var uncertainty: Double
        var frames: Int
    }

    /// Visits whose own extreme lies within this many degrees of the most extreme smoothed
    /// angle are the end the patient reaches; shallower visits are left out.
    let band: Double

    /// The frames of a visit: those whose smoothed angle lies within this share of the whole
    /// motion (at least `2 × band`) of the extreme. On a cosine-like turn a quarter of the
    /// range spans about ±60° of phase, where a parabola reads the top within 0.3°.
    static let visitShareOfRange = 0.25
    /// How far below an end a visit's frames reach, for a motion spanning `range` degrees.
    static func depth(band: Double, range: Double) -> Double { max(2 * band, visitShareOfRange * range) }
    /// Passed frames further apart in time part two visits.
    static let visitGapSeconds = 1.0
    /// A frame further than this many robust standard deviations from the fit (and more than
    /// `outlierFloor` degrees) is left out and the fit made again: a wrong frame the gates let
    /// through must not pull the end.
    static let outlierSigmas = 3.5
    static let outlierFloor = 3.0
    /// Steps of the top times and the hold, as shares of the frame interval.
    static let stepsPerFrame = 8.0
    /// At most this many steps of the hold, and of each visit's top: a knee held still for
    /// minutes makes one visit of the whole video, whose search in eighths of a frame grew with
    /// the cube of its length (a still leg filmed for three minutes took over five). A visit of a
    /// usual end spans a few seconds, 40-70 steps, and is searched as before.
    static let mostSteps = 128.0

    /// The end among `samples` (in time order), or nil when too few frames lie near it for a
    /// fit with a scatter left to judge it by.
    func fit(_ samples: [Sample]) -> Result? {
        guard let top = samples.map(\.smoothed).max(), let bottom = samples.map(\.smoothed).min() else { return nil }
        let depth = Self.depth(band: band, range: top - bottom)
        // A visit reaches the end when a frame of it does: at a turning end the smoothed
        // angle (a median of three) falls short of the peak by the curve's bend between frames.
        let reaching = Self.visits(samples, within: depth, of: top).filter { visit in
            (visit.map { max($0.angle, $0.smoothed) }.max() ?? -.infinity) >= top - band
        }
        // A visit cut off by the video's start or end may have its top outside the video, so
        // the whole visits are fitted alone when they can be. Where the gates left them too
        // few frames, the cut ones join them: the band's mean they would fall back to lies
        // inside a turning end by design.
        let whole = reaching.filter { $0.first?.time != samples.first?.time && $0.last?.time != samples.last?.time }
        let choices = whole.isEmpty || whole.count == reaching.count ? [reaching] : [whole, reaching]
        guard
            let (near, rough) = choices.lazy.compactMap({ near in
                (try? Self.solve(near, reaching: Self.topRanges(near, in: samples))).map { (near, $0) }
            }).first
        else { return nil }
        let (visits, first) = Self.refitByTime(samples, visits: near, fit: rough, depth: depth)
        let kept = Self.withoutOutliers(visits, fit: first)
        guard kept.map(\.count).reduce(0, +) < visits.map(\.count).reduce(0, +) else { return first.result }
        return (try? Self.solve(kept, reaching: Self.topRanges(kept, in: samples)))?.result ?? first.result
    }

    /// Where each visit's top may lie: its own frames' span, and past its first or last frame
    /// across the frames the gates refused there, up to the next passed frame (at most
    /// `visitGapSeconds`). When the gates refused the frames at a visit's top, its last frame
    /// still rises: a top held to the visit's own frames was held there, and bent the fit
    /// shared with the other visits (a turning end read 2° inside the truth with three frames
    /// refused at one of its tops). Where the next frame passed, the top lies before it.
    static func topRanges(_ visits: [[Sample]], in samples: [Sample]) -> [ClosedRange<Double>] {
        let interval = shortestInterval(samples.map(\.time))
        return visits.map { visit in
            guard let first = visit.first?.time, let last = visit.last?.time else { return 0...0 }
            // The video's start or end cuts a visit off as refused frames do.
            let before = samples.last { $0.time < first }?.time ?? (first - visitGapSeconds)
            let after = samples.first { $0.time > last }?.time ?? (last + visitGapSeconds)
            let from = first - before > 1.5 * interval ? max(before, first - visitGapSeconds) : first
            let to = after - last > 1.5 * interval ? min(after, last + visitGapSeconds) : last
            return from...to
        }
    }

    /// The shortest time between two frames of `times` (in time order), 1 when there is none.
    static func shortestInterval(_ times: [Double]) -> Double {
        zip(times.dropFirst(), times).map { $0 - $1 }.filter { $0 > 0 }.min() ?? 1
    }

    /// Runs of consecutive samples within `depth` of `top`, split where frames are far apart.
    static func visits(_ samples: [Sample], within depth: Double, of top: Double) -> [[Sample]] {
        var visits: [[Sample]] = [], current: [Sample] = []
        for s in samples {
            let near = s.smoothed >= top - depth
            if !near || (current.last.map { s.time - $0.time > visitGapSeconds } ?? false), !current.isEmpty {
                visits.append(current)
                current = []
            }
            if near { current.append(s) }
        }
        if !current.isEmpty { visits.append(current) }
        return visits
    }

    /// The fit again on the frames within a time of each fitted top, the time in which the fit
    /// falls by `depth`. Frames chosen by their own angle are chosen partly by their noise: at
    /// a visit's edges a frame read high is in and one read low is out, which flattens the fit
    /// and reads the end inside it (0.2-0.5° at 3 px). Chosen by time they are not. The first
    /// visits and fit stand where the fit has no curvature, the windows would overlap, or the
    /// fit again fails or scatters far more (`worseScatter`).
    static func refitByTime(
        _ samples: [Sample], visits: [[Sample]], fit: Solution, depth: Double
    ) -> ([[Sample]], Solution) {
        guard fit.curvature > 0 else { return (visits, fit) }
        let reach = fit.hold + (depth / fit.curvature).squareRoot()
        let tops = fit.tops.sorted()
        guard zip(tops.dropFirst(), tops).allSatisfy({ $0 - $1 > 2 * reach }) else { return (visits, fit) }
        let timed = fit.tops.map { top in samples.filter { abs($0.time - top) <= reach } }.filter { !$0.isEmpty }
        guard let again = try? solve(timed, reaching: topRanges(timed, in: samples)),
            again.variance <= worseScatter * fit.variance
        else { return (visits, fit) }
        return (timed, again)
    }

    /// A fit again by time whose frames scatter this many times as much about it (in variance)
    /// as the first fit's do is not the same end: a visit of two frames between refused ones
    /// let its top wander onto the slope, the windows by time then took in the slope's steep
    /// frames, and the end read 4° off. Two scatters of ten frames each differ by this much
    /// by chance about once in fifty.
    static let worseScatter = 4.0

    /// The visits without their frames far off the fit.
    private static func withoutOutliers(_ visits: [[Sample]], fit: Solution) -> [[Sample]] {
        let residuals = zip(visits, fit.tops).flatMap { visit, top in visit.map { $0.angle - fit.value(at: $0.time, top: top) } }
        let spread = 1.4826 * Statistics.median(residuals.map(abs))
        let limit = max(outlierFloor, outlierSigmas * spread)
        return zip(visits, fit.tops).map { visit, top in visit.filter { abs($0.angle - fit.value(at: $0.time, top: top)) <= limit } }
            .filter { !$0.isEmpty }
    }
}

/// The least-squares fit: for given top times and hold the model is linear in the peak and
/// the curvature; the top times and the hold are searched in small steps, in turn.
extension ExtremeFit {
    enum FitError: Error { case tooFewFrames }

    struct Solution {
        var peak: Double
        var curvature: Double
        var hold: Double
        var tops: [Double]
        var squares: Double
        var result: Result

        func value(at time: Double, top: Double) -> Double {
            peak - curvature * ExtremeFit.drop(time, top: top, hold: hold)
        }

        /// The frames' variance about the fit, per degree of freedom left.
        var variance: Double { squares / Double(max(1, result.frames - tops.count - 3)) }
    }

    static func drop(_ time: Double, top: Double, hold: Double) -> Double {
        let beyond = max(0, abs(time - top) - hold)
        return beyond * beyond
    }

    /// Rounds of searching the top times for each hold; the fit settles within two.
    static let rounds = 3

    /// `reaching`: per visit, the times its top is searched in (nil: its own frames' span).
    static func solve(_ visits: [[Sample]], reaching: [ClosedRange<Double>]? = nil) throws(FitError) -> Solution {
        let count = visits.map(\.count).reduce(0, +)
        // Peak, curvature, hold and one top per visit, and a scatter left over to judge by.
        guard !visits.isEmpty, count >= visits.count + 5 else { throw .tooFewFrames }
        let search = Search(visits, reaching: reaching)
        let fits = search.holds.map { hold in
            var tops = visits.map(centroid)
            var fit = linear(visits, tops: tops, hold: hold)
            for _ in 0..<rounds {
                tops = zip(visits, zip(search.tops, tops)).map { visit, candidates in
                    candidates.0.min { a, b in visitSquares(visit, top: a, fit) < visitSquares(visit, top: b, fit) } ?? candidates.1
                }
                fit = linear(visits, tops: tops, hold: hold)
            }
            return fit
        }
        return choose(fits, count: count, visits: visits)
    }

    /// How far the fit's shape alone reads an end off, degrees: the parabola only approximates
    /// a stroke's top, which lies between a harmonic swing's and a minimum-jerk stroke's. Over
    /// 300 strokes of that family without noise (flexion 60-150°, cycles of 4-6.5 s, bending
    /// 40-60 % of the time, 3 frames per second) the turning end read 0.23° off in rms (worst
    /// 0.9°), the held one 0.13°. No number of frames averages it away: a ten-minute video's
    /// scatter alone said ±0.09° of an end read 0.35° off.
    static let turningShapeError = 0.23
    static let heldShapeError = 0.13

    /// The fit with its peak's standard error taken with the top times (and a hold) as free
    /// as the peak and the curvature: the linear fit holds them fixed at the times found, and
    /// at a turning end between frames the top's time and the peak trade against each other
    /// (a top a little later reads a little higher), so the fixed-time error is too small.
    /// From the covariance σ²(JᵀJ)⁻¹ of all the unknowns at the fit; where the top times or
    /// the hold leave a column empty (a visit wholly inside the hold) they are left out.
    static func withFreeTops(_ fit: Solution, _ visits: [[Sample]]) -> Solution {
        guard fit.curvature > 0 else { return fit }
        var columns: [[Double]] = [[], []]
        for (visit, top) in zip(visits, fit.tops) {
            for s in visit {
                columns[0].append(1)
                columns[1].append(-drop(s.time, top: top, hold: fit.hold))
            }
        }
        func column(_ slope: (Sample, Int) -> Double) -> [Double] {
            zip(visits.indices, visits).flatMap { k, visit in visit.map { slope($0, k) } }
        }
        // d/d top and d/d hold of −c·max(0, |t − top| − hold)².
        func beyond(_ s: Sample, _ k: Int) -> Double { max(0, abs(s.time - fit.tops[k]) - fit.hold) }
        for k in visits.indices {
            columns.append(column { s, j in j == k ? 2 * fit.curvature * beyond(s, j) * (s.time > fit.tops[j] ? 1 : -1) : 0 })
        }
        if fit.hold > 0 { columns.append(column { s, j in 2 * fit.curvature * beyond(s, j) }) }
        let used = columns.enumerated().filter { i, c in i < 2 || c.contains { abs($0) > 1e-9 } }.map(\.element)
        let n = used.count, rows = used[0].count
        guard rows > n else { return fit }
        var normal = [Double](repeating: 0, count: n * n)
        for i in 0..<n {
            for j in 0...i {
                var sum = 0.0
                for r in 0..<rows { sum += used[i][r] * used[j][r] }
                normal[i * n + j] = sum
                normal[j * n + i] = sum
            }
        }
        guard let inverse = Cholesky.inverse(normal, n), inverse[0] > 0 else { return fit }
        var freed = fit
        let error = (fit.variance * inverse[0]).squareRoot()
        freed.result.uncertainty = max(fit.result.uncertainty, error)
        return freed
    }

    /// The holds and top times tried: steps of an eighth of the shortest frame interval, at
    /// most `mostSteps` of them across the hold's range and across each visit.
    struct Search {
        var frameInterval: Double
        var holds: [Double]
        /// Per visit, the top times tried.
        var tops: [[Double]]

        init(_ visits: [[Sample]], reaching: [ClosedRange<Double>]? = nil) {
            let times = visits.flatMap { $0.map(\.time) }
            frameInterval = shortestInterval(times)
            let step = frameInterval / stepsPerFrame
            let spans = visits.map { visit in (visit.first?.time ?? 0, visit.last?.time ?? 0) }
            let longest = spans.map { $0.1 - $0.0 }.max() ?? 0
            holds = grid(from: 0, to: longest / 2, step: max(step, longest / 2 / mostSteps))
            let ranges = reaching.flatMap { $0.count == spans.count ? $0.map { ($0.lowerBound, $0.upperBound) } : nil } ?? spans
            tops = ranges.map { first, last in grid(from: first, to: last, step: max(step, (last - first) / mostSteps)) }
        }

        /// How many times a visit's squares are summed: each top tried, each round, each hold.
        var evaluations: Int { holds.count * rounds * tops.map(\.count).reduce(0, +) }
    }

    private static func grid(from a: Double, to b: Double, step: Double) -> [Double] {
        guard b > a, step > 0 else { return [a] }
        return (0...Int(((b - a) / step).rounded(.up))).map { min(b, a + Double($0) * step) }
    }

    /// A visit's top to start from: the mean time of its frames weighted by how far they rise
    /// above its lowest, which lies at the top of a visit as high on both sides.
    private static func centroid(_ visit: [Sample]) -> Double {
        let low = visit.map(\.angle).min() ?? 0
        let weights = visit.map { $0.angle - low }
        let total = weights.reduce(0, +)
        guard total > 0 else { return visit[visit.count / 2].time }
        return zip(visit, weights).reduce(0) { $0 + $1.0.time * $1.1 } / total
    }

    private static func visitSquares(_ visit: [Sample], top: Double, _ s: Solution) -> Double {
        visit.reduce(0) { sum, x in
            let r = x.angle - (s.peak - s.curvature * drop(x.time, top: top, hold: s.hold))
            return sum + r * r
        }
    }

    /// The turning end (no hold) and the best held one, weighed by how well each explains the
    /// frames (Akaike weights: the hold is one more thing fitted). A held end reads at the
    /// fit's flat top: the frames within the band of the extreme, averaged, take in the first
    /// and last frames of each climb onto the hold and read it 0.2-0.3° inside on average,
    /// which left ends within 2° in fewer videos than the flat top does. At 3 frames per second a
    /// short hold whose middle frames the gates refused looks much like a turn, and noise at
    /// a turn much like a short hold; each alone then reads a degree or two past or inside
    /// the end, their weighed mean neither, and the spread between them joins the
    /// uncertainty. Frames that fit both exactly (two frames at the end, one on either side)
    /// are read at the longest hold that fits: without noise to go by, at the frames
    /// themselves, not a parabola through a sharp stop.
    private static func choose(_ fits: [Solution], count: Int, visits: [[Sample]]) -> Solution {
        guard let first = fits.first, let best = fits.min(by: { $0.squares < $1.squares }) else { return fits[0] }
        // Only the two weighed are freed: a long video's many visits make each a large system.
        var turning = withFreeTops(first, visits), held = withFreeTops(best, visits)
        turning.result.uncertainty = hypot(turning.result.uncertainty, turningShapeError)
        if held.hold > 0 { held.result.uncertainty = hypot(held.result.uncertainty, heldShapeError) }
        let exact = 1e-6 * Double(count)
        if turning.squares <= exact { return fits.last { $0.squares <= exact } ?? turning }
        let variance = held.squares / Double(max(1, count - held.tops.count - 3))
        guard variance > 0, held.hold > 0 else { return turning }
        let excess = min(50, (turning.squares - held.squares) / variance)
        let weight = 1 / (1 + exp(excess / 2 - 1))  // the turning end's: exp(−excess/2) against exp(−1)
        var mixed = held
        let heldPeak = held.peak
        let peak = weight * turning.peak + (1 - weight) * heldPeak
        let spread =
            weight * (pow(turning.result.uncertainty, 2) + pow(turning.peak - peak, 2)) + (1 - weight)
            * (pow(held.result.uncertainty, 2) + pow(heldPeak - peak, 2))
        mixed.peak = peak
        mixed.result = Result(peak: peak, uncertainty: spread.squareRoot(), frames: held.result.frames)
        return mixed
    }

    /// Peak and curvature by least squares for fixed top times and hold; a curvature that
    /// comes out negative (no end in the frames) is taken as none.
    private static func linear(_ visits: [[Sample]], tops: [Double], hold: Double) -> Solution {
        var n = 0.0, sx = 0.0, sxx = 0.0, sy = 0.0, sxy = 0.0
        for (visit, top) in zip(visits, tops) {
            for s in visit {
                let x = drop(s.time, top: top, hold: hold)
                n += 1
                sx += x
                sxx += x * x
                sy += s.angle
                sxy += x * s.angle
            }
        }
        let det = n * sxx - sx * sx
        var curvature = det > 1e-12 ? -(n * sxy - sx * sy) / det : 0
        var peak = det > 1e-12 ? (sy * sxx - sx * sxy) / det : sy / n
        if curvature < 0 {
            curvature = 0
            peak = sy / n
        }
        var squares = 0.0
        for (visit, top) in zip(visits, tops) {
            for s in visit {
                let r = s.angle - (peak - curvature * drop(s.time, top: top, hold: hold))
                squares += r * r
            }
        }
        // Peak, curvature, hold and the tops are fitted; the rest of the frames give the scatter.
        let freedom = max(1, n - Double(3 + tops.count))
        let variance = squares / freedom
        let peakFactor = det > 1e-12 && curvature > 0 ? sxx / det : 1 / n
        let result = Result(peak: peak, uncertainty: (variance * peakFactor).squareRoot(), frames: Int(n))
        return Solution(peak: peak, curvature: curvature, hold: hold, tops: tops, squares: squares, result: result)
    }
}
