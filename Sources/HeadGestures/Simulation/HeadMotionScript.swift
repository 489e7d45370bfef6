import Foundation
import Geometry

/// One step of a scripted head motion. Angles in degrees.
public enum ScriptedMotion: Sendable, Hashable {
    /// The head rests (with its natural sway).
    case rest(seconds: Double)
    /// Turn or tilt the head one way: ease out, hold, ease back.
    case look(GestureDirection, degrees: Double, rampSeconds: Double, holdSeconds: Double)
    /// Quickly down and back up, `cycles` times.
    case nod(degrees: Double, cycles: Int, cycleSeconds: Double)
    /// Quickly to one side and the other, `cycles` times, starting with `firstSide`.
    case shake(degrees: Double, cycles: Int, cycleSeconds: Double, firstSide: GestureDirection)
    /// Come closer to (or move away from) the camera along its axis while resting.
    case approach(toDistance: Double, seconds: Double)
    /// The face leaves the picture and comes back moved by `shift` (metres, x and y).
    case faceLost(seconds: Double, shift: SIMD2<Double>)

    /// How long the step takes.
    public var seconds: Double {
        switch self {
        case .rest(let s), .approach(_, let s), .faceLost(let s, _): s
        case .look(_, _, let ramp, let hold): 2 * ramp + hold
        case .nod(_, let cycles, let cycle), .shake(_, let cycles, let cycle, _): Double(cycles) * cycle
        }
    }

    /// A short name for truth files.
    public var name: String {
        switch self {
        case .rest: "rest"
        case .look(let d, _, _, _): "look \(d.rawValue)"
        case .nod: "nod"
        case .shake: "shake"
        case .approach: "approach"
        case .faceLost: "faceLost"
        }
    }

    /// The scripted angle in degrees.
    public var degrees: Double? {
        switch self {
        case .look(_, let a, _, _), .nod(let a, _, _), .shake(let a, _, _, _): a
        default: nil
        }
    }
}

/// Small slow movements of a resting head: two sines per axis.
public struct HeadSway: Sendable, Hashable {
    /// Amplitudes (degrees), frequencies (Hz) and phases (radians) of the yaw sines.
    public var yaw: [SIMD3<Double>]
    /// The same for pitch.
    public var pitch: [SIMD3<Double>]

    /// No sway.
    public static let none = HeadSway(yaw: [], pitch: [])

    /// A sway from its sines.
    public init(yaw: [SIMD3<Double>], pitch: [SIMD3<Double>]) {
        self.yaw = yaw
        self.pitch = pitch
    }

    /// A natural sway of up to `degrees` per sine.
    public static func random(degrees: Double, using random: inout SplitMix64) -> HeadSway {
        func sines() -> [SIMD3<Double>] {
            (0..<2).map { _ in SIMD3(random.uniform(0.3...1) * degrees, random.uniform(0.1...0.5), random.uniform(0...(2 * .pi))) }
        }
        return HeadSway(yaw: sines(), pitch: sines())
    }

    func angles(at t: Double) -> SIMD2<Double> {
        func sum(_ s: [SIMD3<Double>]) -> Double { s.reduce(0) { $0 + $1.x * sin(2 * .pi * $1.y * t + $1.z) } }
        return SIMD2(sum(yaw), sum(pitch)) * (.pi / 180)
    }
}

/// A timed sequence of motions from a start position: the head's pose at any moment.
public struct HeadMotionScript: Sendable, Hashable {
    /// The steps, in order.
    public var motions: [ScriptedMotion]
    /// The pivot at the start, camera frame, metres.
    public var start: SIMD3<Double>
    /// The resting head's sway.
    public var sway: HeadSway

    /// A script from its parts.
    public init(motions: [ScriptedMotion], start: SIMD3<Double>, sway: HeadSway = .none) {
        self.motions = motions
        self.start = start
        self.sway = sway
    }

    /// One step with its start time and the pivot at its start.
    public struct Step: Sendable, Hashable {
        /// The motion.
        public var motion: ScriptedMotion
        /// When it starts, seconds.
        public var start: Double
        /// Where the pivot is when it starts.
        public var pivot: SIMD3<Double>
        /// When it ends.
        public var end: Double { start + motion.seconds }
    }

    /// Every step with its timing.
    public var steps: [Step] {
        var result: [Step] = []
        var time = 0.0, pivot = start
        for motion in motions {
            result.append(Step(motion: motion, start: time, pivot: pivot))
            time += motion.seconds
            switch motion {
            case .approach(let z, _): pivot.z = z
            case .faceLost(_, let shift): pivot += SIMD3(shift.x, shift.y, 0)
            default: break
            }
        }
        return result
    }

    /// Total length, seconds.
    public var seconds: Double { motions.reduce(0) { $0 + $1.seconds } }

    /// The pose during `step` at time `t`, and whether the face is in view.
    public func pose(in step: Step, at t: Double) -> (pose: HeadPose, visible: Bool) {
        let u = t - step.start
        var angles = sway.angles(at: t)
        var pivot = step.pivot
        var visible = true
        switch step.motion {
        case .rest: break
        case .look(let d, let degrees, let ramp, let hold):
            angles += Self.vector(d) * degrees * (.pi / 180) * Self.lookProfile(u, ramp: ramp, hold: hold)
        case .nod(let degrees, _, let cycle):
            angles.y += degrees * (.pi / 180) * (1 - cos(2 * .pi * u / cycle)) / 2
        case .shake(let degrees, _, let cycle, let side):
            angles.x += (side == .left ? 1 : -1) * degrees * (.pi / 180) * sin(2 * .pi * u / cycle)
        case .approach(let z, let seconds):
            pivot.z += (z - pivot.z) * Self.ease(min(1, max(0, u / seconds)))
        case .faceLost:
            visible = false
        }
        return (HeadPose(yaw: angles.x, pitch: angles.y, pivot: pivot), visible)
    }

    /// Unit yaw/pitch change of a direction.
    static func vector(_ d: GestureDirection) -> SIMD2<Double> {
        switch d {
        case .left: SIMD2(1, 0)
        case .right: SIMD2(-1, 0)
        case .down: SIMD2(0, 1)
        case .up: SIMD2(0, -1)
        }
    }

    /// 0 → 1 smoothly (half a cosine).
    static func ease(_ x: Double) -> Double { (1 - cos(.pi * x)) / 2 }

    /// Ease out over `ramp`, hold, ease back.
    static func lookProfile(_ u: Double, ramp: Double, hold: Double) -> Double {
        if u < 0 { return 0 }
        if u < ramp { return ease(u / ramp) }
        if u < ramp + hold { return 1 }
        if u < 2 * ramp + hold { return ease(1 - (u - ramp - hold) / ramp) }
        return 0
    }
}
