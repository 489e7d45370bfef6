/// Where the legs are in one frame, in pixels: the measured leg's hip, knee and ankle, and
/// the other leg's joints when the pose model found them. Enough to draw a stick figure.
public struct LegPose: Sendable, Equatable, Codable {
    public var hip: SIMD2<Double>
    public var knee: SIMD2<Double>
    public var ankle: SIMD2<Double>
    public var otherHip: SIMD2<Double>?
    public var otherKnee: SIMD2<Double>?
    public var otherAnkle: SIMD2<Double>?

    public init(
        hip: SIMD2<Double>, knee: SIMD2<Double>, ankle: SIMD2<Double>,
        otherHip: SIMD2<Double>? = nil, otherKnee: SIMD2<Double>? = nil, otherAnkle: SIMD2<Double>? = nil
    ) {
        self.hip = hip
        self.knee = knee
        self.ankle = ankle
        self.otherHip = otherHip
        self.otherKnee = otherKnee
        self.otherAnkle = otherAnkle
    }

    /// Hip to knee, pixels.
    public var thighLength: Double { KneeAngle.length(knee - hip) }
    /// Knee to ankle, pixels.
    public var shankLength: Double { KneeAngle.length(ankle - knee) }
}

/// The keypoints of both legs in one frame, with confidences, as the gates need them.
struct FrameLegs {
    var hip: Keypoint
    var knee: Keypoint
    var ankle: Keypoint
    var otherHip: Keypoint?
    var otherKnee: Keypoint?
    var otherAnkle: Keypoint?

    /// The measured side's joints, or nil when one is missing.
    init?(_ frame: PoseFrame, side: BodySide) {
        let leg = side.leg, other = side.opposite.leg
        guard let hip = frame[leg.hip], let knee = frame[leg.knee], let ankle = frame[leg.ankle] else { return nil }
        self.hip = hip
        self.knee = knee
        self.ankle = ankle
        otherHip = frame[other.hip]
        otherKnee = frame[other.knee]
        otherAnkle = frame[other.ankle]
    }

    var measured: [Keypoint] { [hip, knee, ankle] }

    /// The legs with every position moved by `transform`.
    func mapped(_ transform: (SIMD2<Double>) -> SIMD2<Double>) -> FrameLegs {
        func move(_ k: Keypoint) -> Keypoint { Keypoint(transform(k.position), confidence: k.confidence) }
        var legs = self
        (legs.hip, legs.knee, legs.ankle) = (move(hip), move(knee), move(ankle))
        (legs.otherHip, legs.otherKnee, legs.otherAnkle) = (otherHip.map(move), otherKnee.map(move), otherAnkle.map(move))
        return legs
    }

    /// The pose for drawing; the other leg's joints only when found with `minimumConfidence`.
    func pose(minimumConfidence: Double?) -> LegPose {
        func trusted(_ k: Keypoint?) -> SIMD2<Double>? {
            guard let k, k.confidence > (minimumConfidence ?? -1) else { return nil }
            return k.position
        }
        return LegPose(
            hip: hip.position, knee: knee.position, ankle: ankle.position,
            otherHip: trusted(otherHip), otherKnee: trusted(otherKnee), otherAnkle: trusted(otherAnkle))
    }
}
