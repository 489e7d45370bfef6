import Geometry

/// Ready-made simulated sessions.
public enum GestureScenario: String, Sendable, CaseIterable, Codable {
    /// Looks in all four directions, nods, shakes, leaning in and out, the face lost now and
    /// then, with rests between.
    case mixed
    /// The head only rests: nothing should happen.
    case rest
    /// The resting head comes closer to the camera and moves away again: nothing should happen.
    case approach
    /// Nods and shakes over the whole range of speeds and sizes people use (`GestureRange`),
    /// looks as in `mixed`, often in quick succession (the shortest pause that still parts
    /// two gestures).
    case varied
    /// Nods and shakes of 10-15° per swing, as conversation has them (`GestureRange.smallDegrees`),
    /// at every speed of `GestureRange`, with calm rests between.
    case conversational
    /// The head only rests, but restlessly: it sways several times as far as a calm one
    /// (up to 3° per sine). Nothing should happen.
    case restless

    /// A script of about `seconds` for this scenario; the same seed gives the same script.
    public func script(seconds: Double, seed: UInt64) -> (script: HeadMotionScript, face: SimulatedFace) {
        var random = SplitMix64(seed: seed ^ 0x5EED_5C21_97AB)
        let face = SimulatedFace.random(using: &random)
        let start = SIMD3(random.uniform(-0.03...0.03), random.uniform(-0.02...0.02), random.uniform(0.4...0.55))
        let sway = HeadSway.random(degrees: self == .restless ? Self.restlessSway : Self.calmSway, using: &random)
        var builder = ScriptBuilder(random: random, distance: start.z, target: seconds)
        builder.add(.rest(seconds: 2))
        while builder.seconds < seconds {
            switch self {
            case .mixed: builder.addMixedRound()
            case .rest: builder.add(.rest(seconds: 5))
            case .approach: builder.addApproachRound()
            case .varied: builder.addVariedRound()
            case .conversational: builder.addConversationalRound()
            case .restless: builder.add(.rest(seconds: 5))
            }
        }
        return (HeadMotionScript(motions: builder.motions, start: start, sway: sway), face)
    }

    /// The largest amplitude of each of a resting head's sway sines, degrees: calm and restless.
    public static let calmSway = 0.8
    public static let restlessSway = 3.0
}

/// Builds scenario scripts step by step.
struct ScriptBuilder {
    var random: SplitMix64
    var distance: Double
    /// Seconds the script should last; a round stops once they are reached.
    let target: Double
    var motions: [ScriptedMotion] = []
    var seconds = 0.0

    mutating func add(_ motion: ScriptedMotion) {
        motions.append(motion)
        seconds += motion.seconds
        if case .approach(let z, _) = motion { distance = z }
    }

    /// Every gesture once in a random order, rests between, sometimes leaning in or out and
    /// sometimes losing the face.
    mutating func addMixedRound() {
        let kinds = random.shuffled(["left", "right", "up", "down", "nod", "shake"])
        for kind in kinds where seconds < target {
            add(gesture(kind))
            add(.rest(seconds: random.uniform(1.0...2.0)))
            if random.chance(0.12) { addApproach() }
        }
        if seconds < target, random.chance(0.3) {
            add(.faceLost(seconds: random.uniform(0.8...1.5), shift: SIMD2(random.uniform(-0.03...0.03), random.uniform(-0.02...0.02))))
            add(.rest(seconds: 2))
        }
    }

    /// Looks once each, nods and shakes twice each, in a random order; half the pauses are as
    /// short as two gestures allow.
    mutating func addVariedRound() {
        let kinds = random.shuffled(["left", "right", "up", "down", "nod", "shake", "nod", "shake"])
        for kind in kinds where seconds < target {
            let motion = kind == "nod" || kind == "shake" ? variedGesture(kind) : gesture(kind)
            add(motion)
            let quick = GestureRange.shortestPause(after: motion)
            add(.rest(seconds: random.chance(0.5) ? random.uniform(quick...(quick + 0.2)) : random.uniform(max(1, quick)...(max(1, quick) + 1))))
        }
    }

    /// Small nods and shakes in a random order, each followed by a calm rest.
    mutating func addConversationalRound() {
        for kind in random.shuffled(["nod", "shake", "nod", "shake"]) where seconds < target {
            let motion = variedGesture(kind, degrees: GestureRange.smallDegrees)
            add(motion)
            add(.rest(seconds: max(GestureRange.shortestPause(after: motion), random.uniform(1.0...2.0))))
        }
    }

    private mutating func variedGesture(_ kind: String, degrees: ClosedRange<Double>? = nil) -> ScriptedMotion {
        let cycles = random.integer(GestureRange.cycles)
        let cycleSeconds = random.uniform(GestureRange.cycleSeconds)
        if kind == "nod" {
            return .nod(degrees: random.uniform(degrees ?? GestureRange.nodDegrees), cycles: cycles, cycleSeconds: cycleSeconds)
        }
        return .shake(
            degrees: random.uniform(degrees ?? GestureRange.shakeDegrees), cycles: cycles, cycleSeconds: cycleSeconds,
            firstSide: random.chance(0.5) ? .left : .right)
    }

    mutating func addApproachRound() {
        addApproach()
        add(.rest(seconds: random.uniform(0.5...1.5)))
    }

    private mutating func addApproach() {
        let target = distance > 0.45 ? random.uniform(0.3...0.36) : random.uniform(0.5...0.6)
        add(.approach(toDistance: target, seconds: random.uniform(1.5...3)))
        add(.rest(seconds: random.uniform(0.5...1.0)))
    }

    private mutating func gesture(_ kind: String) -> ScriptedMotion {
        switch kind {
        case "nod":
            return .nod(degrees: random.uniform(20...28), cycles: random.integer(2...3), cycleSeconds: random.uniform(0.45...0.6))
        case "shake":
            return .shake(
                degrees: random.uniform(20...30), cycles: random.integer(2...3), cycleSeconds: random.uniform(0.5...0.65),
                firstSide: random.chance(0.5) ? .left : .right)
        default:
            let direction = GestureDirection(rawValue: kind) ?? .left
            return .look(direction, degrees: random.uniform(22...32), rampSeconds: random.uniform(0.2...0.35), holdSeconds: random.uniform(0.7...1.5))
        }
    }
}

/// The nods and shakes the recogniser is built for, as people make them to answer yes or no:
/// deliberate ones, and the small ones of conversation and of answering a device (not the
/// fast nodding of a listener, a few degrees at 3-6 swings a second, which stays below the
/// swing threshold).
public enum GestureRange {
    /// How far the head tips down in a deliberate nod, degrees: every swing passes the
    /// movement threshold (0.3 eye distances, about 13° for an average face), so the nod's
    /// swings are looks too in continuous mode.
    public static let nodDegrees = 20.0...35.0
    /// How far the head turns to each side in a shake, degrees.
    public static let shakeDegrees = 20.0...40.0
    /// How far the head tips or turns per swing in the small nods and shakes of conversation
    /// and of answering a device, degrees. With a calmly resting head a swing needs about 6°
    /// (`GestureSettings.swingThreshold`, 0.14 eye distances); a restless head's sway raises
    /// that.
    public static let smallDegrees = 10.0...15.0
    /// Swings down and up (or to each side and back) per gesture.
    public static let cycles = 2...4
    /// Seconds per swing down and up (or to both sides): 0.8 to 2.9 swings a second.
    public static let cycleSeconds = 0.35...1.25
    /// The shortest pause that keeps a gesture apart from the next, seconds: the settings'
    /// gesture gap (0.5 s by default) and a little more, and after a nod or shake a whole
    /// cycle of it (a slow nod's swings are further apart); closer together, two nods make
    /// one longer nod.
    public static func shortestPause(after motion: ScriptedMotion) -> Double {
        switch motion {
        case .nod(_, _, let cycle), .shake(_, _, let cycle, _): max(0.7, cycle)
        default: 0.7
        }
    }
}

/// A simulated session: script, stream and the truth for given settings.
public struct SimulatedSession: Sendable {
    /// The stream.
    public var stream: SimulatedStream
    /// The true gesture events.
    public var truth: [TruthEvent]

    /// The session of `scenario` with `seed`, as `simulator` sees it, judged with `settings`.
    public init(
        scenario: GestureScenario, seconds: Double, seed: UInt64, simulator: HeadMotionSimulator = HeadMotionSimulator(),
        settings: GestureSettings = GestureSettings()
    ) throws(GestureError) {
        let (script, face) = scenario.script(seconds: seconds, seed: seed)
        stream = simulator.run(script, face: face, seed: seed)
        truth = try GestureTruth.events(of: stream, settings: settings)
    }
}
