/// Rejects frames where the pose model swapped the two legs, judged over time: the knee
/// angles of both legs are compared with the median of each leg's angle in the two frames
/// before and after, and a frame is swapped when exchanging the legs fits those medians clearly
/// better. From the side the two legs overlap, so their order in x cannot tell, but a swap
/// still shows as the measured knee suddenly taking the other knee's angle and back.
///
/// A clean frame can never fit better swapped while the other leg holds still: by the
/// triangle inequality exchanging the angles costs at least as much as keeping them.
struct LegSwapGate {
    /// Degrees by which the swapped reading must fit better.
    let margin: Double
    /// Frames in the running medians.
    let window = 5

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
        let measuredReference = RunningMedian.ofNeighbours(known.map { both[$0]!.0 }, window: window)
        let otherReference = RunningMedian.ofNeighbours(known.map { both[$0]!.1 }, window: window)
        var passes = [Bool](repeating: true, count: poses.count)
        for (k, i) in known.enumerated() {
            let (m, o) = both[i]!
            let keep = abs(m - measuredReference[k]) + abs(o - otherReference[k])
            let swapped = abs(o - measuredReference[k]) + abs(m - otherReference[k])
            passes[i] = swapped + margin >= keep
        }
        return passes
    }
}
