import Foundation
import Geometry
import Testing

@testable import RangeOfMotion

@Suite("Legs swapped at a turning end, told by the still leg's shape")
struct LegSwapShapeTests {
    /// A leg seen from the side, its thigh hanging straight down 200 px from `hip` and its
    /// shank turned back by the knee's flexion (180 − angle).
    static func leg(hip: SIMD2<Double>, angle: Double) -> (SIMD2<Double>, SIMD2<Double>, SIMD2<Double>) {
        let knee = hip + SIMD2(0, 200)
        let flexion = (180 - angle) * .pi / 180
        return (hip, knee, knee + 200 * SIMD2(sin(flexion), cos(flexion)))
    }

    /// 20 s at 3 frames per second of a knee turning between 60° and 186° without a pause, the
    /// other leg standing still at `otherAngle` (or bending too), 2 px of noise on every joint.
    static func poses(otherAngle: (Double) -> Double = { _ in 176 }, seed: UInt64 = 5) -> [LegPose] {
        var random = SplitMix64(seed: seed)
        return (0..<60).map { k in
            let t = Double(k) / 3
            let angle = 123 - 63 * cos(2 * .pi * (t + 0.4) / 5)
            let m = leg(hip: SIMD2(300, 200), angle: angle), o = leg(hip: SIMD2(310, 200), angle: otherAngle(t))
            func noisy(_ p: SIMD2<Double>) -> SIMD2<Double> { p + random.gaussian2(sigma: 2) }
            return LegPose(
                hip: noisy(m.0), knee: noisy(m.1), ankle: noisy(m.2), otherHip: noisy(o.0), otherKnee: noisy(o.1), otherAnkle: noisy(o.2))
        }
    }

    static func swapped(_ p: LegPose) -> LegPose {
        LegPose(hip: p.otherHip!, knee: p.otherKnee!, ankle: p.otherAnkle!, otherHip: p.hip, otherKnee: p.knee, otherAnkle: p.ankle)
    }

    /// The frame at the top of the straight end, 186° against the still leg's 176°.
    static func topFrame(_ poses: [LegPose]) -> Int {
        poses.indices.max { KneeAngle.length(poses[$0].ankle - poses[$0].hip) < KneeAngle.length(poses[$1].ankle - poses[$1].hip) }!
    }

    @Test("a swap at the top of a turning end is caught, and no clean frame with it")
    func swapAtTheTop() throws {
        var poses = Self.poses()
        let top = Self.topFrame(poses)
        poses[top] = Self.swapped(poses[top])
        let shape = try #require(LegSwapGate.stillLegSeenInPlace(poses))
        #expect(shape[top] == true)
        #expect(shape.indices.filter { shape[$0] == true } == [top])
        #expect(!LegSwapGate(margin: 5).passes(poses, flexionSense: 1)[top])
    }

    @Test("a clean video loses no frame to the shape", arguments: [1, 2, 3, 4] as [UInt64])
    func cleanVideo(seed: UInt64) throws {
        let shape = try #require(LegSwapGate.stillLegSeenInPlace(Self.poses(seed: seed)))
        #expect(!shape.contains(true))
    }

    /// The angles' running medians lag at a turning top: a clean top frame can fit them better
    /// swapped. A frame whose measured leg is clearly not the still one passes whatever they say.
    @Test("clean frames the angles' medians would refuse pass where the still leg's shape clears them")
    func cleanFramesCleared() throws {
        let gate = LegSwapGate(margin: 5)
        var refusedByAngles = 0, refusedByGate = 0
        for seed in 1...12 as ClosedRange<UInt64> {
            let poses = Self.poses(seed: seed)
            let angles = poses.map { KneeAngle.onFlexionSide(hip: $0.hip, knee: $0.knee, ankle: $0.ankle, flexionSense: 1)! }
            let others = poses.map {
                KneeAngle.onFlexionSide(hip: $0.otherHip!, knee: $0.otherKnee!, ankle: $0.otherAnkle!, flexionSense: 1)!
            }
            refusedByAngles += gate.anglesFitBetterSwapped(measured: angles, other: others).filter { $0 }.count
            let shape = try #require(LegSwapGate.stillLegSeenInPlace(poses))
            let passes = gate.passes(poses, flexionSense: 1)
            refusedByGate += passes.filter { !$0 }.count
            #expect(poses.indices.filter { shape[$0] == false }.allSatisfy { passes[$0] })
        }
        #expect(refusedByAngles > 2 * refusedByGate)
    }

    @Test("when the other leg moves too its shape tells nothing, and the shape test stays silent")
    func otherLegMoving() {
        var poses = Self.poses(otherAngle: { t in 120 + 50 * sin(2 * .pi * t / 3) })
        let top = Self.topFrame(poses)
        poses[top] = Self.swapped(poses[top])
        #expect(LegSwapGate.stillLegSeenInPlace(poses) == nil)
    }

    /// The same video seen at a slant: the other hip lies `apart` px beside the measured one.
    static func slanted(apart: Double, seed: UInt64 = 5) -> [LegPose] {
        poses(seed: seed).map { p in
            LegPose(
                hip: p.hip, knee: p.knee, ankle: p.ankle, otherHip: p.otherHip! + SIMD2(apart - 10, 0), otherKnee: p.otherKnee,
                otherAnkle: p.otherAnkle)
        }
    }

    @Test("at a slant a swap shows in the hips' order, and no clean frame is refused for it")
    func hipsExchanged() {
        var poses = Self.slanted(apart: 40)
        let top = Self.topFrame(poses)
        poses[top] = Self.swapped(poses[top])
        let verdicts = LegSwapGate.hipsExchanged(poses)
        #expect(verdicts[top] == true)
        #expect(verdicts.indices.filter { verdicts[$0] == true } == [top])
        #expect(verdicts.indices.filter { $0 != top }.allSatisfy { verdicts[$0] == false })
    }

    @Test("hips that overlap in the picture tell nothing", arguments: [1, 2, 3] as [UInt64])
    func hipsOverlapping(seed: UInt64) {
        var poses = Self.slanted(apart: 2, seed: seed)
        poses[Self.topFrame(poses)] = Self.swapped(poses[Self.topFrame(poses)])
        #expect(LegSwapGate.hipsExchanged(poses).allSatisfy { $0 == nil })
    }
}
