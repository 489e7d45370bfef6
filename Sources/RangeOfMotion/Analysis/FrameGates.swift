/// The quality gates that look at one frame alone, in the order a frame is checked.
struct FrameGates {
    let settings: RangeOfMotionSettings
    let width: Double
    let height: Double
    let side: BodySide

    /// The first failing gate that needs no other frame: joints found, confident, inside
    /// the picture and apart.
    func basicReason(_ legs: FrameLegs?) -> RejectionReason? {
        guard let legs else { return .missingJoint }
        if let minimum = settings.minimumConfidence, !(legs.measured.map(\.confidence).min()! > minimum) {
            return .lowConfidence
        }
        if settings.rejectOutsidePicture, !legs.measured.allSatisfy({ isInside($0.position, margin: 0) }) {
            return .outsidePicture
        }
        let pose = legs.pose(minimumConfidence: nil)
        if pose.thighLength < 1 || pose.shankLength < 1 || KneeAngle.length(pose.ankle - pose.hip) < 1 {
            return .jointsCoincide
        }
        return nil
    }

    /// The first failing order gate; `flexionSense` is +1 when the patient faces +x, -1 when
    /// facing -x, nil when the video never bends the knee enough to tell.
    func orderReason(_ legs: FrameLegs, flexionSense: Int?) -> RejectionReason? {
        let pose = legs.pose(minimumConfidence: settings.minimumConfidence)
        if let tolerance = settings.lateralOrderTolerance, !lateralOrderHolds(pose, tolerance: tolerance) {
            return .lateralOrder
        }
        if settings.kneeAnkleOrder, !kneeAnkleOrderHolds(pose, flexionSense: flexionSense) {
            return .kneeAnkleOrder
        }
        if settings.hipAboveKneeAndAnkle, !(pose.hip.y < pose.knee.y && pose.hip.y < pose.ankle.y) {
            return .hipOrder
        }
        if let limit = settings.maximumHyperextension, let sense = flexionSense,
            let angle = KneeAngle.onFlexionSide(hip: pose.hip, knee: pose.knee, ankle: pose.ankle, flexionSense: sense),
            angle > 180 + limit
        {
            return .bendsBackward
        }
        return nil
    }

    /// The seed's rule with a margin: every left joint lies right of (or level with) its
    /// right partner in the image, less `tolerance` thigh lengths. Pairs whose other joint
    /// was not found confidently are skipped.
    private func lateralOrderHolds(_ pose: LegPose, tolerance: Double) -> Bool {
        let margin = tolerance * pose.thighLength
        let pairs: [(SIMD2<Double>, SIMD2<Double>?)] = [(pose.hip, pose.otherHip), (pose.knee, pose.otherKnee), (pose.ankle, pose.otherAnkle)]
        for (measured, other) in pairs {
            guard let other else { continue }
            let (left, right) = side == .left ? (measured, other) : (other, measured)
            if left.x < right.x - margin { return false }
        }
        return true
    }

    /// The knee is above the ankle, or the ankle is clearly behind the knee (deep flexion
    /// lifts the foot above the knee, but only behind it).
    private func kneeAnkleOrderHolds(_ pose: LegPose, flexionSense: Int?) -> Bool {
        if pose.knee.y < pose.ankle.y { return true }
        guard let sense = flexionSense else { return false }
        // Facing +x (sense +1), behind is -x.
        return (pose.ankle.x - pose.knee.x) * Double(sense) < -settings.behindMargin * pose.thighLength
    }

    /// Whether `p` lies in the picture, at least `margin` pixels from its edges (pixel
    /// centres at integers: the picture spans -0.5 ... size - 0.5).
    func isInside(_ p: SIMD2<Double>, margin: Double) -> Bool {
        p.x >= -0.5 + margin && p.x <= width - 0.5 - margin && p.y >= -0.5 + margin && p.y <= height - 0.5 - margin
    }
}
