import Foundation
import Geometry
import Recording

/// The infant's head on the parent's lap: small wobbles and shifts, and, when restless,
/// turning away now and then.
struct InfantMotion {
    private let yaw: SmoothNoise, pitch: SmoothNoise, roll: SmoothNoise
    private let shift: (SmoothNoise, SmoothNoise, SmoothNoise)
    private let turns: Episodes
    private let lurches: Episodes
    private let scale: Double

    /// The head turns about the neck.
    static let pivot = SIMD3<Double>(0, -0.01, -0.06)

    init(scenario: Scenario, duration: Double, rng: inout Xoshiro256) {
        yaw = SmoothNoise(rng: &rng)
        pitch = SmoothNoise(rng: &rng)
        roll = SmoothNoise(rng: &rng)
        shift = (SmoothNoise(rng: &rng), SmoothNoise(rng: &rng), SmoothNoise(rng: &rng))
        scale = scenario.headMotionScale
        turns = Episodes(count: scenario == .restless ? max(1, Int(duration / 15)) : 0, duration: 1.5, total: duration, rng: &rng)
        lurches = Episodes(count: scenario == .restless ? max(1, Int(duration / 12)) : 0, duration: 2, total: duration, ramp: 1, rng: &rng)
    }

    /// How far infant and parent have swayed at time `t`: now and then a restless infant
    /// squirms and the parent sways with it, 22 cm sideways or up and down, out of the
    /// picture, building up over a second and lasting about two.
    func bodyShift(at t: Double) -> SIMD3<Double> {
        let lurch = lurches.strength(at: t)
        return SIMD3(cos(lurch.direction), 0, sin(lurch.direction)) * (0.22 * lurch.value)
    }

    /// Where the head is at time `t`.
    func worldFromHead(at t: Double) -> RigidTransform {
        let turn = turns.strength(at: t)
        let turnAngle = turn.value * 0.8 * (cos(turn.direction) >= 0 ? 1 : -1)
        let rotation = Rotation3(
            yaw: 0.05 * scale * yaw.value(at: t) + turnAngle, pitch: 0.04 * scale * pitch.value(at: t),
            roll: 0.03 * scale * roll.value(at: t))
        let offset =
            SIMD3(shift.0.value(at: t), shift.1.value(at: t), shift.2.value(at: t)) * (0.006 * scale)
            + bodyShift(at: t)
        return RigidTransform(rotation: rotation, translation: Self.pivot - rotation.apply(Self.pivot) + offset)
    }
}
