/// Rejects frames whose thigh or shank image length jumps away from its running median: a
/// joint put on the wrong body part, or the leg turning out of the picture plane, where the
/// angle seen in the image is no longer the knee's.
struct SegmentLengthGate {
    let tolerance: Double
    let window: Int

    /// For each pose, whether its segment lengths stay within the tolerance.
    func passes(_ poses: [LegPose]) -> [Bool] {
        let thighs = poses.map(\.thighLength), shanks = poses.map(\.shankLength)
        let thighReference = RunningMedian.reference(thighs, window: window)
        let shankReference = RunningMedian.reference(shanks, window: window)
        return poses.indices.map { i in
            within(thighs[i], thighReference[i]) && within(shanks[i], shankReference[i])
        }
    }

    private func within(_ value: Double, _ reference: Double) -> Bool {
        reference > 0 && abs(value / reference - 1) <= tolerance
    }
}
