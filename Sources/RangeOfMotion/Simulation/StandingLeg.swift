import Foundation

/// The body of the simulated patient, metres. World frame: x forward (the way the patient
/// faces), y to the patient's left, z up, origin on the floor between the feet.
public struct LegDimensions: Sendable, Equatable, Codable {
    public var thigh = 0.43
    public var shank = 0.42
    /// Distance between the two hip joints.
    public var hipSpacing = 0.18
    /// Height of the hip joints above the floor, standing.
    public var hipHeight = 0.92

    public init() {}
}

/// Standing knee flexion, the exercise the patient films: from the straightest position,
/// bend the knee bringing the heel up behind, hold, straighten, hold, again.
public struct KneeMotion: Sendable, Equatable, Codable {
    /// Degrees past straight at the straight end (hyperextension); negative when the knee
    /// stops short of straight (an extension deficit).
    public var extensionDegrees = 5.0
    /// Knee flexion at the bent end, degrees.
    public var flexionDegrees = 130.0
    /// One bend and straighten, seconds.
    public var cycleSeconds = 5.0
    /// Time held at each end, seconds (patients are told to hold for a moment); 0 turns
    /// straight back, a smooth cycle without a pause.
    public var holdSeconds = 0.8
    /// Seconds into the cycle at the video's start.
    public var phaseSeconds = 0.0
    /// How each stroke eases between the ends: 0 a harmonic swing (a half cosine, the way
    /// rhythmic limb movements go), 1 a minimum-jerk stroke (Flash & Hogan 1985: a reach
    /// from rest to rest, whose acceleration too is nil at the ends, so that the knee lingers
    /// there even without a hold), in between a mixture.
    public var jerkShare = 0.0
    /// The share of the moving time spent bending; 0.5 bends as fast as it straightens.
    public var bendShare = 0.5
    /// Hip flexion at full knee flexion, degrees: the thigh drifts forward a little.
    public var hipFlexionDegrees = 5.0
    /// The leg turned outward from the sagittal plane, degrees.
    public var abductionDegrees = 3.0

    public init() {}

    /// Knee flexion at `time`, degrees (negative: hyperextended).
    public func flexion(at time: Double) -> Double {
        let low = -extensionDegrees, high = flexionDegrees
        let moving = max(0.02, cycleSeconds - 2 * holdSeconds)
        let bend = moving * min(0.9, max(0.1, bendShare)), straighten = moving - bend
        var t = (time + phaseSeconds).truncatingRemainder(dividingBy: cycleSeconds)
        if t < 0 { t += cycleSeconds }
        if t < holdSeconds { return low }
        t -= holdSeconds
        if t < bend { return low + (high - low) * ease(t / bend) }
        t -= bend
        if t < holdSeconds { return high }
        return high + (low - high) * ease((t - holdSeconds) / straighten)
    }

    private func ease(_ u: Double) -> Double {
        let u = min(1, max(0, u))
        let swing = (1 - cos(.pi * u)) / 2
        let stroke = u * u * u * (10 - 15 * u + 6 * u * u)
        return (1 - jerkShare) * swing + jerkShare * stroke
    }
}

/// Both legs' joints in 3D at one moment.
public struct LegJoints3D: Sendable, Equatable {
    public var hip, knee, ankle: SIMD3<Double>
    public var otherHip, otherKnee, otherAnkle: SIMD3<Double>
    /// The measured knee's interior angle on the flexion side, degrees (180 = straight).
    public var trueAngle: Double
}

/// How the patient lies, sits or stands while the knee bends: physiotherapists measure knee
/// flexion in all three.
public enum KneePosture: String, Sendable, Equatable, Codable, CaseIterable {
    /// Standing on the other leg, the heel drawn up behind (the original app's exercise).
    case standing
    /// Lying on the back on a couch, the heel sliding towards the buttock: the knee rises.
    case lying
    /// Sitting on a chair, the thigh level: the shank swings from straight out in front to
    /// under the chair.
    case sitting
}

/// The simulated patient: one leg moving, the other still.
public struct StandingLeg: Sendable, Equatable {
    public var dimensions = LegDimensions()
    public var motion = KneeMotion()
    /// The leg being measured.
    public var side = BodySide.left
    /// Standing, lying or sitting.
    public var posture = KneePosture.standing
    /// The pelvis turned about the vertical through the measured hip, degrees, positive
    /// bringing the other hip forward: the line through the hips is then not square to the
    /// measured leg's plane.
    public var pelvisTurnDegrees = 0.0

    public init(dimensions: LegDimensions = LegDimensions(), motion: KneeMotion = KneeMotion(), side: BodySide = .left) {
        self.dimensions = dimensions
        self.motion = motion
        self.side = side
    }

    /// +1 for the left leg (world +y), -1 for the right.
    var lateral: Double { side == .left ? 1 : -1 }

    /// The joints at `time`.
    public func joints(at time: Double) -> LegJoints3D {
        let phi = motion.flexion(at: time)
        switch posture {
        case .standing:
            let range = max(1, motion.flexionDegrees + motion.extensionDegrees)
            let theta = motion.hipFlexionDegrees * (phi + motion.extensionDegrees) / range
            return pose(hipHeight: dimensions.hipHeight, thighForward: theta, kneeFlexion: phi, otherThigh: 0, otherFlexion: 3)
        case .lying:
            // The foot stays on the couch: the thigh rises by theta and the shank comes back
            // down, L1 sin(theta) = L2 sin(phi - theta). Angles from straight down, forward
            // positive: a level leg pointing forward is 90°.
            let rad = Double.pi / 180
            let rise = phi > 0 ? atan2(dimensions.shank * sin(phi * rad), dimensions.thigh + dimensions.shank * cos(phi * rad)) / rad : 0
            return pose(hipHeight: Self.couchHeight, thighForward: 90 + rise, kneeFlexion: phi, otherThigh: 90, otherFlexion: 0)
        case .sitting:
            // The thigh lies level on the seat; straight, the shank points forward.
            return pose(hipHeight: Self.seatHeight, thighForward: 90, kneeFlexion: phi, otherThigh: 90, otherFlexion: 90)
        }
    }

    /// Hip joints above the floor lying on a couch and sitting on a chair, metres.
    static let couchHeight = 0.75
    static let seatHeight = 0.5

    /// Both legs from their hips at `hipHeight`: the measured thigh turned forward from
    /// straight down by `thighForward` degrees and the knee flexed by `kneeFlexion`; the
    /// other leg likewise, turned out a little the other way.
    private func pose(hipHeight: Double, thighForward: Double, kneeFlexion: Double, otherThigh: Double, otherFlexion: Double) -> LegJoints3D {
        let hip = SIMD3(0, lateral * dimensions.hipSpacing / 2, hipHeight)
        let (knee, ankle) = leg(from: hip, hipFlexion: thighForward, kneeFlexion: kneeFlexion, abduction: lateral * motion.abductionDegrees)
        let turn = pelvisTurnDegrees * .pi / 180
        let otherHip = hip + dimensions.hipSpacing * SIMD3(lateral * sin(turn), -lateral * cos(turn), 0)
        let (otherKnee, otherAnkle) = leg(from: otherHip, hipFlexion: otherThigh, kneeFlexion: otherFlexion, abduction: -lateral * 2)
        return LegJoints3D(
            hip: hip, knee: knee, ankle: ankle, otherHip: otherHip, otherKnee: otherKnee, otherAnkle: otherAnkle, trueAngle: 180 - kneeFlexion)
    }

    /// Knee and ankle of a leg hanging from `hip`: the thigh tilted forward by the hip
    /// flexion, the shank turned back from it by the knee flexion, all in the sagittal
    /// plane, then the whole leg turned out about the forward axis.
    private func leg(from hip: SIMD3<Double>, hipFlexion: Double, kneeFlexion: Double, abduction: Double) -> (SIMD3<Double>, SIMD3<Double>) {
        let rad = Double.pi / 180
        func direction(_ degreesForward: Double) -> SIMD3<Double> {
            let a = degreesForward * rad, g = abduction * rad
            let v = SIMD3(sin(a), 0, -cos(a))
            return SIMD3(v.x, v.y * cos(g) - v.z * sin(g), v.y * sin(g) + v.z * cos(g))
        }
        let knee = hip + dimensions.thigh * direction(hipFlexion)
        let ankle = knee + dimensions.shank * direction(hipFlexion - kneeFlexion)
        return (knee, ankle)
    }
}
