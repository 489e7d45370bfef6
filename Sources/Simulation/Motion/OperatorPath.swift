import Foundation
import Geometry
import Markers
import Recording

/// The therapist with the phone: walks around the infant along a planned path with the
/// distance, height and pointing wobble of a hand, and follows steering when given (a
/// direction in strokes with pauses, as `DirectionResponse` explains).
struct OperatorPath {
    let scenario: Scenario
    let duration: Double
    private let distanceNoise: SmoothNoise
    private let aimNoise: (SmoothNoise, SmoothNoise, SmoothNoise)
    private let rollNoise: SmoothNoise
    private let closeEpisodes: Episodes
    private let offCentreEpisodes: Episodes

    /// Distance change from steering, metres.
    private var distanceCorrection = 0.0
    /// Sideways and vertical shift of the phone from steering (world frame), metres.
    private var shift = SIMD3<Double>.zero
    /// How much of the current off-centre lapse the operator has corrected on instruction (metres)
    /// and in which direction the lapse points (angle in the picture, toward the phone's top).
    private var offCentreCorrection = 0.0
    private var offCentreDirection: Double?
    /// Where the operator is in answering a direction (strokes and pauses).
    private var directionResponse = DirectionResponse()
    /// How much of the current coming-too-close the operator has undone on instruction (0...1).
    private var closeCorrection = 0.0
    private var isTooClose = false

    /// How far the operator points past the head during an off-centre lapse, metres.
    static let offCentreReach = 0.25
    /// How fast the phone moves during a stroke answering an instruction, metres per second.
    static let steeringSpeed = 0.2
    /// Where steering asked to go, and how far the operator has turned toward it (0...1).
    private var regionTarget: (azimuth: Double, elevation: Double)?
    private var regionBlend = 0.0
    /// How far the planned walk goes round the head over the scan, degrees.
    static let plannedTurnDegrees = 400.0
    /// How far round the head the operator has walked back on being told to, radians: the
    /// walk goes on from there, it does not jump ahead to where the plan had got to.
    private var walkedBack = 0.0
    /// How fast an operator walks back round the head when told to, radians per second
    /// ("slowly": the planned walk itself goes round at 400° over the scan, 20° a second in
    /// a 20 s scan).
    static let walkBackSpeed = 15.0 * Double.pi / 180
    /// How far the operator has moved the phone with the infant's head on looking for it
    /// (world, metres), and how fast they close in on it (a time constant, seconds).
    private var headFollow = SIMD3<Double>.zero
    static let findHeadSeconds = 0.4
    /// The camera axes at the last pose, to turn "phone left" into a world direction.
    private var lastPose = RigidTransform.identity

    /// The point the operator aims at: the middle of the vault (head frame at rest = world).
    static let aimPoint = SIMD3<Double>(0, 0.005, 0.035)

    init(scenario: Scenario, duration: Double, rng: inout Xoshiro256) {
        self.scenario = scenario
        self.duration = duration
        distanceNoise = SmoothNoise(rng: &rng, lowest: 0.05, highest: 0.3)
        aimNoise = (SmoothNoise(rng: &rng), SmoothNoise(rng: &rng), SmoothNoise(rng: &rng))
        rollNoise = SmoothNoise(rng: &rng, lowest: 0.05, highest: 0.2)
        let episodes = max(1, Int(duration / 20))
        closeEpisodes = Episodes(count: scenario == .tooClose ? 2 * episodes : 0, duration: 2.5, total: duration, rng: &rng)
        // A lapse builds up over a second, as a hand drifts; it is not a jump.
        offCentreEpisodes = Episodes(count: scenario == .offCenter ? 2 * episodes : 0, duration: 2.5, total: duration, ramp: 1, rng: &rng)
    }

    /// The phone's pose at time `t` after following `steering` for `dt` seconds; `headAim` is
    /// where the operator would aim on looking at the infant (the vault's middle as it is now).
    mutating func pose(at t: Double, dt: Double, steering: Steering, headAim: SIMD3<Double>? = nil) -> RigidTransform {
        follow(steering, dt: dt)
        if case .findHead = steering, let headAim {
            headFollow += (headAim - Self.aimPoint - headFollow) * min(1, dt / Self.findHeadSeconds)
        } else {
            headFollow *= exp(-dt / 1.5)
        }
        isTooClose = closeEpisodes.strength(at: t).value > 0
        if !isTooClose { closeCorrection = 0 }
        var (azimuth, elevation) = plannedDirection(at: t)
        azimuth -= walkedBack
        if let target = regionTarget {
            azimuth += regionBlend * angleBetween(azimuth, target.azimuth)
            elevation += regionBlend * (target.elevation - elevation)
        }
        let distance = max(0.08, plannedDistance(at: t) + distanceCorrection)
        let direction = SIMD3(cos(elevation) * cos(azimuth), cos(elevation) * sin(azimuth), sin(elevation))
        let jitter = SIMD3(aimNoise.0.value(at: t), aimNoise.1.value(at: t), aimNoise.2.value(at: t)) * 0.012
        var aim = Self.aimPoint + jitter + shift + headFollow
        let eye = Self.aimPoint + direction * distance + shift + headFollow
        let straight = RigidTransform.camera(at: eye, lookingAt: aim, up: SIMD3(0, 0, 1))
        let offCentre = offCentreEpisodes.strength(at: t)
        if offCentre.value > 0 {
            let (top, right, _) = straight.rotation.columns
            let reach = max(0, Self.offCentreReach * offCentre.value - offCentreCorrection)
            aim += (top * cos(offCentre.direction) + right * sin(offCentre.direction)) * reach
            offCentreDirection = offCentre.direction
        } else {
            offCentreDirection = nil
            offCentreCorrection = 0
        }
        let forward = normalized(aim - eye)
        let up = Rotation3(axis: forward, angle: 0.08 * rollNoise.value(at: t)).apply(SIMD3(0, 0, 1))
        lastPose = RigidTransform.camera(at: eye, lookingAt: aim, up: up)
        return lastPose
    }

    /// Azimuth (from the infant's right, counter-clockwise seen from above) and elevation.
    private func plannedDirection(at t: Double) -> (Double, Double) {
        let s = t / max(duration, 1e-9)
        let deg = Double.pi / 180
        var elevation = (22 + 18 * sin(2 * Double.pi * 2.3 * s)) * deg
        let azimuth: Double
        if scenario == .partial {
            azimuth = (90 + 95 * sin(2 * Double.pi * s)) * deg
            elevation = min(elevation, 30 * deg)
        } else {
            azimuth = (90 + Self.plannedTurnDegrees * s) * deg
            // The last part of the scan passes over the crown.
            let top = min(1, max(0, (s - 0.8) / 0.1))
            elevation += (65 * deg - elevation) * top * top * (3 - 2 * top)
        }
        return (azimuth, elevation)
    }

    /// How fast the planned walk goes round the head, radians per second.
    private var plannedTurnSpeed: Double {
        scenario == .partial ? 0 : Self.plannedTurnDegrees * Double.pi / 180 / max(duration, 1e-9)
    }

    private func plannedDistance(at t: Double) -> Double {
        let planned = 0.34 + 0.05 * distanceNoise.value(at: t)
        let close = max(0, closeEpisodes.strength(at: t).value - closeCorrection)
        return planned + (0.13 - planned) * close
    }

    private mutating func follow(_ steering: Steering, dt: Double) {
        let (top, right, _) = lastPose.rotation.columns
        var instruction: (x: Double, y: Double)?
        if case .movePhone(let x, let y) = steering { instruction = (x, y) }
        if let (x, y) = directionResponse.step(instruction: instruction, dt: dt) {
            // During a lapse the operator re-aims (the part of the move against the lapse);
            // otherwise the phone itself moves.
            let against = offCentreDirection.map { -(y * cos($0) + x * sin($0)) } ?? 0
            if against > 0 {
                offCentreCorrection += Self.steeringSpeed * dt * against
            } else {
                shift += (right * x + top * y) * (Self.steeringSpeed * dt)
            }
        }
        var turningToRegion = false
        switch steering {
        case .moveBack where isTooClose: closeCorrection += 2 * dt
        case .moveBack: distanceCorrection += 0.25 * dt
        case .moveCloser: distanceCorrection -= 0.25 * dt
        case .movePhone:
            break  // answered in strokes above
        case .goTo(let region):
            regionTarget = Self.direction(of: region)
            regionBlend = min(1, regionBlend + dt)
            turningToRegion = true
        case .goBack:
            // Back against the plan's own walk round, which goes on meanwhile.
            walkedBack += (Self.walkBackSpeed + plannedTurnSpeed) * dt
        case .findHead:
            // Looking for the head, the operator stops walking round (aimed in `pose`).
            walkedBack += plannedTurnSpeed * dt
        case .none:
            // Without instructions the operator drifts back to the plan: they can see the
            // infant, just not the screen.
            distanceCorrection *= exp(-dt / 1.5)
            shift *= exp(-dt / 1.5)
        }
        if !turningToRegion {
            regionBlend = max(0, regionBlend - 0.5 * dt)
            if regionBlend == 0 { regionTarget = nil }
        }
    }

    /// The viewing direction from which a region of the head is seen best.
    static func direction(of region: HeadRegion) -> (azimuth: Double, elevation: Double) {
        let deg = Double.pi / 180
        return switch region {
        case .front: (90 * deg, 15 * deg)
        case .left: (180 * deg, 20 * deg)
        case .back: (270 * deg, 20 * deg)
        case .right: (0, 20 * deg)
        case .top: (90 * deg, 75 * deg)
        }
    }

    /// Signed shortest turn from `a` to `b`.
    private func angleBetween(_ a: Double, _ b: Double) -> Double {
        atan2(sin(b - a), cos(b - a))
    }
}
