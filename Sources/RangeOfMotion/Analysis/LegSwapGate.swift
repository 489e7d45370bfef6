import Geometry

/// Rejects frames where the pose model swapped the two legs, judged over time: the knee
/// angles of both legs are compared with the median of each leg's angle in the two frames
/// before and after, and a frame is swapped when exchanging the legs fits those medians clearly
/// better. From the side the two legs overlap, so their order in x cannot tell, but a swap
/// still shows as the measured knee suddenly taking the other knee's angle and back.
///
/// The medians lag at a turning end, where a clean top frame can fit them better swapped
/// (a straight knee at 184°, the standing leg at 176°, its neighbours on the slopes at 166°
/// and 179°): about 2 % of the clean frames were refused so, most of them at an end.
///
/// Angles alone miss a swap at a turning end: at 3 frames per second the neighbours of the
/// top frame lie on the slopes, inside the peak, and their medians sit between the two legs'
/// angles, so exchanging them fits no better (a straight knee at 186° read as the standing
/// leg's 176°, a sitting knee at 72° read as the other shank's 90°). So the other leg's shape
/// is compared too: where it holds still (standing on it, lying or sitting with it at rest) its
/// thigh and shank keep their direction and length in the picture, and a frame whose measured
/// leg has that shape, clearly more than its other leg has, shows the still leg in the
/// measured leg's place; one whose measured leg is clearly unlike it does not, and the angles
/// decide only between. Seen at a slant, a swap also shows in the hips' order.
struct LegSwapGate {
    /// Degrees by which the swapped reading must fit better.
    let margin: Double
    /// Whether the still leg's shape decides where it can tell and the hips' order refuses
    /// (false: the shape only adds refusals to the angles', as with the original gates).
    var byStillLeg = true
    /// Frames in the running medians.
    let window = 5
    /// Neighbours giving the still leg's usual shape.
    static let shapeWindow = 8
    /// Thigh lengths by which the measured leg must lie nearer the still leg's usual shape than
    /// the other leg's own reading: 3 px of keypoint noise moves a shape by about 0.04, a
    /// swap whose angles differ by 5° by about 0.09.
    static let shapeMargin = 0.06
    /// The other leg counts as still when its shape lies this close to its neighbours' in
    /// the median frame (thigh lengths); a leg that moves tells nothing by its shape.
    static let stillness = 0.06

    /// For each pose, whether it passes; poses without the other leg pass.
    func passes(_ poses: [LegPose], flexionSense: Int?) -> [Bool] {
        let both = poses.map { pose -> (Double, Double)? in
            guard let hip = pose.otherHip, let knee = pose.otherKnee, let ankle = pose.otherAnkle,
                let measured = KneeAngle.onFlexionSide(hip: pose.hip, knee: pose.knee, ankle: pose.ankle, flexionSense: flexionSense),
                let other = KneeAngle.onFlexionSide(hip: hip, knee: knee, ankle: ankle, flexionSense: flexionSense)
            else { return nil }
            return (measured, other)
        }
        let known = both.indices.filter { both[$0] != nil }
        let angles = anglesFitBetterSwapped(measured: known.map { both[$0]!.0 }, other: known.map { both[$0]!.1 })
        // Where the other leg holds still its shape decides: the angles' medians lag at a
        // turning end (a clean top frame fitted them better swapped), and a measured leg
        // clearly unlike the still leg is not the still leg, whatever they say.
        let shapes = Self.stillLegSeenInPlace(known.map { poses[$0] })
        var passes = [Bool](repeating: true, count: poses.count)
        guard byStillLeg else {
            for (k, i) in known.enumerated() { passes[i] = !(angles[k] || shapes?[k] == true) }
            return passes
        }
        for (k, i) in known.enumerated() { passes[i] = !(shapes?[k] ?? angles[k]) }
        for (i, exchanged) in Self.hipsExchanged(poses).enumerated() where exchanged == true { passes[i] = false }
        return passes
    }

    /// For each frame's knee angles (measured leg, other leg), whether exchanging them fits the
    /// running medians of each leg's neighbours better by `margin`.
    func anglesFitBetterSwapped(measured: [Double], other: [Double]) -> [Bool] {
        let measuredReference = RunningMedian.ofNeighbours(measured, window: window)
        let otherReference = RunningMedian.ofNeighbours(other, window: window)
        return measured.indices.map { k in
            let keep = abs(measured[k] - measuredReference[k]) + abs(other[k] - otherReference[k])
            let swapped = abs(other[k] - measuredReference[k]) + abs(measured[k] - otherReference[k])
            return swapped + margin < keep
        }
    }

    /// For each pose, whether its hips lie exchanged against their usual places (true), clearly
    /// in them (false), or cannot tell (nil). A swap of the legs exchanges the hips too, and the
    /// line from the other hip to the measured one turns round; measured from one hip to the
    /// other it does not depend on where the camera points. Seen at a slant the hips lie
    /// 30-50 px apart, and a swap at an end whose legs have nearly the same angle and shape
    /// still shows here. Only a refusal is taken from it: hips in their places say nothing of
    /// a pose model that exchanged the knees and ankles alone.
    static func hipsExchanged(_ poses: [LegPose]) -> [Bool?] {
        let offsets = poses.map { pose in pose.otherHip.map { pose.hip - $0 } }
        let known = offsets.indices.filter { offsets[$0] != nil }
        guard known.count > shapeWindow else { return poses.map { _ in nil } }
        let xs = RunningMedian.ofNeighbours(known.map { offsets[$0]!.x }, window: shapeWindow)
        let ys = RunningMedian.ofNeighbours(known.map { offsets[$0]!.y }, window: shapeWindow)
        let scatter = known.indices.map { k in KneeAngle.length(offsets[known[k]]! - SIMD2(xs[k], ys[k])) }
        // Exact keypoints scatter by nothing: 0.03 thigh lengths is the least apart the hips
        // must lie, and 0.02 the least margin.
        let thigh = Statistics.median(poses.map(\.thighLength))
        let typical = Statistics.median(scatter)
        var verdicts = [Bool?](repeating: nil, count: poses.count)
        for (k, i) in known.enumerated() {
            let usual = SIMD2(xs[k], ys[k]), d = offsets[i]!
            // Apart by less than a few scatters the hips' order cannot be read.
            guard KneeAngle.length(usual) > max(hipSeparations * typical, 0.03 * thigh) else { continue }
            let kept = KneeAngle.length(d - usual), turned = KneeAngle.length(d + usual)
            let margin = max(2 * typical, 0.02 * thigh)
            if turned + margin < kept { verdicts[i] = true } else if kept + margin < turned { verdicts[i] = false }
        }
        return verdicts
    }

    /// The hips' usual offset must be this many times their typical scatter about it for their
    /// order to be read: from the side they overlap.
    static let hipSeparations = 3.0

    /// For each pose (every one with both legs), whether its measured leg shows the other
    /// leg's usual shape clearly better than its other leg does (true), clearly worse (false:
    /// the measured leg is not the still one), or neither (nil); nil for all when the other
    /// leg is not still.
    static func stillLegSeenInPlace(_ poses: [LegPose]) -> [Bool?]? {
        let scale = Statistics.median(poses.map(\.thighLength))
        guard poses.count > shapeWindow, scale > 0 else { return nil }
        func shape(_ hip: SIMD2<Double>, _ knee: SIMD2<Double>, _ ankle: SIMD2<Double>) -> [Double] {
            let thigh = (knee - hip) / scale, shank = (ankle - knee) / scale
            return [thigh.x, thigh.y, shank.x, shank.y]
        }
        let measured = poses.map { shape($0.hip, $0.knee, $0.ankle) }
        // A pose without the other leg counts as showing the measured leg twice: never swapped.
        let other = poses.map { shape($0.otherHip ?? $0.hip, $0.otherKnee ?? $0.knee, $0.otherAnkle ?? $0.ankle) }
        let columns = (0..<4).map { c in RunningMedian.ofNeighbours(other.map { $0[c] }, window: shapeWindow) }
        let usual = poses.indices.map { i in columns.map { $0[i] } }
        func distance(_ a: [Double], _ b: [Double]) -> Double { zip(a, b).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }.squareRoot() }
        let own = poses.indices.map { distance(other[$0], usual[$0]) }
        let typical = Statistics.median(own)
        guard typical <= stillness else { return nil }
        let margin = max(shapeMargin, 2 * typical)
        return poses.indices.map { i in
            let seen = distance(measured[i], usual[i])
            return seen + margin < own[i] ? true : (own[i] + margin < seen ? false : nil)
        }
    }
}
