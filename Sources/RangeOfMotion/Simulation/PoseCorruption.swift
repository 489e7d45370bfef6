import Foundation
import Geometry

/// The pose model's typical mistakes, put into simulated frames so the gates can be tested.
public enum PoseCorruption: String, Sendable, CaseIterable, Codable, Hashable {
    /// One joint of the measured leg found with confidence below 0.3, and misplaced.
    case lowConfidence
    /// The two legs' labels swapped (left for right).
    case legSwap
    /// The measured leg's knee and ankle labels swapped.
    case kneeAnkleSwap
    /// The measured leg's hip and knee labels swapped.
    case hipKneeSwap

    /// Applies the mistake to the frame's keypoints.
    func apply(to keypoints: inout [CocoKeypoint: Keypoint], side: BodySide, random: inout SplitMix64) {
        let leg = side.leg, other = side.opposite.leg
        func swap(_ a: CocoKeypoint, _ b: CocoKeypoint) {
            let first = keypoints[a]
            keypoints[a] = keypoints[b]
            keypoints[b] = first
        }
        switch self {
        case .lowConfidence:
            let joint = leg.all[Int(random.next() % 3)]
            guard var point = keypoints[joint], let hip = keypoints[leg.hip], let knee = keypoints[leg.knee] else { return }
            let thigh = KneeAngle.length(knee.position - hip.position)
            let direction = random.uniform(0...(2 * .pi))
            point.position += thigh * random.uniform(0.1...0.5) * SIMD2(cos(direction), sin(direction))
            point.confidence = random.uniform(0.02...0.3)
            keypoints[joint] = point
        case .legSwap:
            for (a, b) in zip(leg.all, other.all) { swap(a, b) }
        case .kneeAnkleSwap:
            swap(leg.knee, leg.ankle)
        case .hipKneeSwap:
            swap(leg.hip, leg.knee)
        }
    }
}
