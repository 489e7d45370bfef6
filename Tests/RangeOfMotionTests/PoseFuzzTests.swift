import Foundation
import Geometry
import Testing

@testable import RangeOfMotion

/// Pose files come from other apps and devices: whatever passes validation must be analysed
/// without a trap, and an accepted result must be a range of finite angles.
@Suite("Pose files that pass validation, however odd")
struct PoseFuzzTests {
    /// A valid but unfriendly sequence: joints on top of each other, far outside the picture
    /// or scattered at random, missing joints, confidences at 0 and 1, frames a microsecond
    /// apart or minutes apart.
    static func sequence(_ random: inout SplitMix64) -> PoseSequence {
        let scale = [1.0, 1e-6, 1e6, 1e12][Int(random.next() % 4)]
        let width = max(1e-9, random.uniform(0.5...4000)), height = max(1e-9, random.uniform(0.5...4000))
        let base = SIMD2(random.uniform(-2000...4000), random.uniform(-2000...4000))
        var time = random.uniform(-100...100)
        let joints: [CocoKeypoint] = [.leftHip, .leftKnee, .leftAnkle, .rightHip, .rightKnee, .rightAnkle]
        let frames = (0..<Int(random.next() % 30)).map { _ -> PoseFrame in
            time += [1e-6, 1.0 / 3, 90][Int(random.next() % 3)]
            var points: [CocoKeypoint: Keypoint] = [:]
            for joint in joints where random.unit() > 0.1 {
                let spot = random.unit() < 0.2 ? base : base + scale * SIMD2(random.uniform(-1...1), random.uniform(-1...1))
                points[joint] = Keypoint(spot, confidence: [0, 1, random.unit()][Int(random.next() % 3)])
            }
            return PoseFrame(time: time, keypoints: points)
        }
        return PoseSequence(width: width, height: height, frames: frames)
    }

    /// A bending leg whose frames are spoiled at random in the same ways.
    static func spoiledBend(_ random: inout SplitMix64) -> PoseSequence {
        let flexions = Poses.bending(from: random.uniform(-10...20), to: random.uniform(30...160), cycles: 1 + Int(random.next() % 3))
        return Poses.sequence(flexions) { _, points in
            guard random.unit() < 0.3, let joint = points.keys.sorted(by: { $0.cocoIndex < $1.cocoIndex }).randomElement(using: &random) else {
                return
            }
            switch random.next() % 4 {
            case 0: points[joint] = nil
            case 1: points[joint]!.position = points[.leftHip]!.position
            case 2: points[joint]!.position *= 1e9
            default: points[joint]!.confidence = 0
            }
        }
    }

    @Test("random valid pose files are analysed, accepted or not, never a trap")
    func randomPoseFiles() throws {
        var random = SplitMix64(seed: 2026)
        var accepted = 0, notAccepted = 0, refused = 0
        for _ in 0..<40 {
            let poses = random.unit() < 0.5 ? Self.sequence(&random) : Self.spoiledBend(&random)
            guard (try? poses.validate()) != nil else { continue }
            for settings in [RangeOfMotionSettings(), .originalGates] {
                for side in [BodySide.left, .right] {
                    do {
                        let a = try RangeOfMotionAnalyzer(settings: settings).analyze(poses, side: side)
                        guard a.accepted, let low = a.minimum, let high = a.maximum else {
                            notAccepted += 1
                            continue
                        }
                        accepted += 1
                        #expect(low.angle.isFinite && high.angle.isFinite && low.angle <= high.angle + 1e-9)
                        #expect(a.frames.allSatisfy { $0.angle?.isFinite ?? true })
                    } catch {
                        refused += 1
                    }
                }
            }
        }
        // The draw must reach both verdicts, or the test proves less than it says; valid poses
        // are never refused with an error, only not accepted.
        #expect(accepted > 0 && notAccepted > 0 && refused == 0, "\(accepted) accepted, \(notAccepted) not, \(refused) refused")
    }
}
