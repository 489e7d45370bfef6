import Foundation

@testable import RangeOfMotion

/// Builds poses by hand: a left leg filmed from the left side (the patient faces -x, so
/// flexion swings the ankle toward +x), the right leg standing straight behind it.
enum Poses {
    static let thigh = 200.0, shank = 190.0
    static let hip = SIMD2<Double>(500, 700)

    /// Hip, knee and ankle of the left leg bent by `flexion` degrees (negative: hyperextended).
    static func leftLeg(flexion: Double, hip: SIMD2<Double> = hip) -> (SIMD2<Double>, SIMD2<Double>, SIMD2<Double>) {
        let knee = hip + SIMD2(0, thigh)
        let a = flexion * .pi / 180
        return (hip, knee, knee + shank * SIMD2(sin(a), cos(a)))
    }

    /// One frame: the left leg at `flexion`, the right leg straight at the same place.
    static func frame(_ t: Double, flexion: Double, confidence: Double = 0.9, edit: (inout [CocoKeypoint: Keypoint]) -> Void = { _ in }) -> PoseFrame
    {
        let (h, k, a) = leftLeg(flexion: flexion)
        let (rh, rk, ra) = leftLeg(flexion: 2, hip: hip + SIMD2(-3, 2))
        var points: [CocoKeypoint: Keypoint] = [
            .leftHip: Keypoint(h, confidence: confidence), .leftKnee: Keypoint(k, confidence: confidence),
            .leftAnkle: Keypoint(a, confidence: confidence), .rightHip: Keypoint(rh, confidence: 0.8),
            .rightKnee: Keypoint(rk, confidence: 0.8), .rightAnkle: Keypoint(ra, confidence: 0.8),
        ]
        edit(&points)
        return PoseFrame(time: t, keypoints: points)
    }

    /// A video at 3 frames per second bending from `from` to `to` degrees of flexion and
    /// back, `cycles` times, holding two frames at each end.
    static func bending(from low: Double = 0, to high: Double = 120, cycles: Int = 2) -> [Double] {
        let ramp = (1...4).map { low + (high - low) * Double($0) / 5 }
        let cycle = [low, low] + ramp + [high, high] + ramp.reversed()
        return Array(repeating: cycle, count: cycles).flatMap { $0 } + [low, low]
    }

    /// The poses of a video with the given flexions, frame by frame.
    static func sequence(_ flexions: [Double], edit: (Int, inout [CocoKeypoint: Keypoint]) -> Void = { _, _ in }) -> PoseSequence {
        let frames = flexions.enumerated().map { i, flexion in frame(Double(i) / 3, flexion: flexion) { edit(i, &$0) } }
        return PoseSequence(width: 1080, height: 1920, frames: frames)
    }

    /// The analysis of the left knee with default or given settings.
    static func analyze(_ poses: PoseSequence, _ settings: RangeOfMotionSettings = RangeOfMotionSettings()) throws -> RangeOfMotionAnalysis {
        try RangeOfMotionAnalyzer(settings: settings).analyze(poses, side: .left)
    }
}
