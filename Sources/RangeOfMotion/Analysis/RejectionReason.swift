/// Why a frame was left out of the measurement; the gates are checked in this order and a
/// frame gets the first that fails.
public enum RejectionReason: String, Sendable, CaseIterable, Codable, CodingKeyRepresentable, Hashable, Comparable {
    /// The hip, knee or ankle of the measured side was not found.
    case missingJoint
    /// The lowest confidence of the hip, knee and ankle is not above the setting.
    case lowConfidence
    /// The hip, knee or ankle lies outside the picture.
    case outsidePicture
    /// Two of the hip, knee and ankle are at the same place.
    case jointsCoincide
    /// A left joint lies clearly on the wrong side of the right one: the legs look swapped.
    case lateralOrder
    /// The ankle is above the knee without being behind it.
    case kneeAnkleOrder
    /// The hip is not above the knee and the ankle.
    case hipOrder
    /// The knee bends against the sense of flexion by more than a knee can.
    case bendsBackward
    /// Over time the two legs fit clearly better exchanged: the pose model swapped them.
    case legsSwapped
    /// The thigh or shank is much longer or shorter than in the neighbouring frames.
    case segmentLength
    /// The angle jumps away from both neighbouring frames and back, faster than a knee turns.
    case angleJump

    /// The reason in a few words, for summaries and reports.
    public var phrase: String {
        switch self {
        case .missingJoint: "hip, knee or ankle not found"
        case .lowConfidence: "hip, knee or ankle found with low confidence"
        case .outsidePicture: "leg outside the picture"
        case .jointsCoincide: "two joints at the same place"
        case .lateralOrder: "left and right joints in the wrong order"
        case .kneeAnkleOrder: "knee and ankle in an impossible order"
        case .hipOrder: "hip not above knee and ankle"
        case .bendsBackward: "knee bent the wrong way"
        case .legsSwapped: "legs swapped"
        case .segmentLength: "thigh or shank length jumped"
        case .angleJump: "angle jumped faster than a knee turns"
        }
    }

    public static func < (a: Self, b: Self) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
