/// The 17 body keypoints of the COCO layout, which Apple Vision, MediaPipe and OpenPose all
/// map to; the raw values are COCO's names, as pose files spell them.
public enum CocoKeypoint: String, Sendable, CaseIterable, Codable, Hashable {
    case nose
    case leftEye = "left_eye"
    case rightEye = "right_eye"
    case leftEar = "left_ear"
    case rightEar = "right_ear"
    case leftShoulder = "left_shoulder"
    case rightShoulder = "right_shoulder"
    case leftElbow = "left_elbow"
    case rightElbow = "right_elbow"
    case leftWrist = "left_wrist"
    case rightWrist = "right_wrist"
    case leftHip = "left_hip"
    case rightHip = "right_hip"
    case leftKnee = "left_knee"
    case rightKnee = "right_knee"
    case leftAnkle = "left_ankle"
    case rightAnkle = "right_ankle"

    /// COCO's index of the keypoint (0 = nose … 16 = right ankle).
    public var cocoIndex: Int { Self.allCases.firstIndex(of: self)! }
}

/// The patient's side whose knee is measured.
public enum BodySide: String, Sendable, CaseIterable, Codable, Hashable {
    case left, right

    /// The other side.
    public var opposite: BodySide { self == .left ? .right : .left }

    /// The hip, knee and ankle of this side's leg.
    public var leg: LegKeypoints {
        switch self {
        case .left: LegKeypoints(hip: .leftHip, knee: .leftKnee, ankle: .leftAnkle)
        case .right: LegKeypoints(hip: .rightHip, knee: .rightKnee, ankle: .rightAnkle)
        }
    }
}

/// The three keypoints of one leg.
public struct LegKeypoints: Sendable, Equatable {
    public var hip: CocoKeypoint
    public var knee: CocoKeypoint
    public var ankle: CocoKeypoint

    /// Hip, knee, ankle, in that order.
    public var all: [CocoKeypoint] { [hip, knee, ankle] }
}
