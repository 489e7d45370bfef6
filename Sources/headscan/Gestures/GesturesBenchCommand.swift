import ArgumentParser
import Foundation
import HeadGestures

/// `headscan gestures bench`: accuracy and speed of gesture recognition on simulated sessions.
struct GesturesBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmark gesture recognition on simulated sessions (build with -c release).",
        discussion: """
            Mixed sessions (looks in four directions of 22-32°, nods of 20-28° and shakes of \
            20-30° with 2-3 cycles, rests, leaning in and out, the face lost now and then) and \
            varied sessions (nods of 20-35° and shakes of 20-40° with 2-4 cycles of 0.35-1.25 \
            s, often right after another gesture) and conversational sessions (nods and shakes \
            of 10-15° per swing at the same speeds, calm rests between) with 2 px landmark \
            noise and 2 % detector \
            dropouts, each run in discrete and in continuous mode: precision and recall per \
            event kind against the simulator's truth (matched within half a second), and the \
            timing error in frames. Resting sessions (calm, and restless: a sway of up to 3° \
            per sine) and leaning-in sessions count every gesture event as false. The engine's speed is timed over the mixed sessions' \
            frames on one core.

            Example:
              swift run -c release headscan gestures bench --json
            """)

    @Option(help: "Mixed, varied and conversational sessions (half as many resting, restless and leaning-in ones).")
    var sessions = 100

    @Option(help: "Seconds per session.")
    var seconds = 60.0

    @Option(help: "First seed.")
    var seed: UInt64 = 1

    @Option(help: "Standard deviation of each landmark coordinate, pixels.")
    var noise = 2.0

    @Option(help: "Share of frames the face detector misses.")
    var dropouts = 0.02

    @Option(
        help:
            "Gesture settings to measure with: a JSON file or inline JSON, as for gestures (e.g. '{\"swingThreshold\": 0.3}' for the fixed threshold); the mode is set per table, and the truth keeps the default swing threshold."
    )
    var settings: String?

    @OptionGroup var outputOptions: OutputOptions

    func validate() throws {
        guard sessions >= 2 else { throw ValidationError("--sessions must be at least 2") }
        guard seconds >= 10 else { throw ValidationError("--seconds must be at least 10") }
    }

    func run() throws {
        var simulator = HeadMotionSimulator()
        simulator.noisePixels = noise
        simulator.dropoutRate = dropouts
        var result = GesturesBenchResult(sessions: sessions, seconds: seconds, noisePixels: noise, dropoutRate: dropouts)
        var progress = ProgressBar("gestures bench")
        var allFrames: [[FaceFrame]] = []
        let scored: [(scenario: GestureScenario, mode: GestureMode)] = [
            (.mixed, .discrete), (.mixed, .continuous), (.varied, .discrete), (.varied, .continuous),
            (.conversational, .discrete), (.conversational, .continuous),
        ]
        let restful: [GestureScenario] = [.rest, .restless, .approach]
        let total = scored.count * sessions + restful.count * (sessions / 2)
        let base = try loadGestureSettings(settings)
        for (n, (scenario, mode)) in scored.enumerated() {
            var settings = base
            settings.mode = mode
            // The truth is what a calmly resting person's gestures are, whatever is measured.
            var truthSettings = settings
            truthSettings.swingThreshold = min(GestureSettings().swingThreshold, settings.movementThreshold)
            var scores: [String: EventScore] = [:]
            var delays = DelayCount()
            var scripted = 0
            for k in 0..<sessions {
                let session = try SimulatedSession(
                    scenario: scenario, seconds: seconds, seed: seed + UInt64(k), simulator: simulator, settings: truthSettings)
                scripted += session.stream.script.motions.filter { $0.degrees != nil }.count
                let detected = try GestureEvaluation.events(of: session.stream.frames, settings: settings)
                for (kind, score) in EventScoring.score(detected: detected, truth: session.truth, fps: session.stream.fps) {
                    scores[kind, default: EventScore()].add(score)
                }
                delays.add(detected: detected, session: session)
                if scenario == .mixed, mode == .discrete { allFrames.append(session.stream.frames) }
                progress.update(n * sessions + k + 1, of: total)
            }
            let name = scenario == .mixed ? mode.rawValue : "\(scenario.rawValue) \(mode.rawValue)"
            result.modes[name] = ModeResult(scores: scores, delays: delays, scriptedGestures: scripted)
        }
        for (i, scenario) in restful.enumerated() {
            var falseEvents = 0
            for k in 0..<(sessions / 2) {
                let session = try SimulatedSession(scenario: scenario, seconds: seconds, seed: seed + UInt64(k), simulator: simulator)
                falseEvents += try GestureEvaluation.falseGestures(in: session.stream.frames, settings: base).count
                progress.update(scored.count * sessions + i * (sessions / 2) + k + 1, of: total)
            }
            switch scenario {
            case .rest: result.restFalseEvents = falseEvents
            case .restless: result.restlessFalseEvents = falseEvents
            default: result.approachFalseEvents = falseEvents
            }
        }
        result.framesPerSecond = try measureSpeed(allFrames)
        try outputOptions.emit(result)
    }

    /// Engine frames per second over the sessions' frames, repeated for at least a second.
    private func measureSpeed(_ sessions: [[FaceFrame]]) throws -> Double {
        var frames = 0, sink = 0
        var buffer: [GestureEvent] = []
        buffer.reserveCapacity(16)
        let clock = ContinuousClock()
        let start = clock.now
        repeat {
            for session in sessions {
                var engine = try GestureEngine()
                for frame in session {
                    buffer.removeAll(keepingCapacity: true)
                    engine.process(frame, into: &buffer)
                    sink &+= buffer.count
                }
                frames += session.count
            }
        } while (clock.now - start).seconds < 1
        if sink == Int.min { print(sink) }
        return Double(frames) / (clock.now - start).seconds
    }
}

/// Timing errors beyond 3 frames, and how many of them a detector dropout explains (the face
/// was missing between the true moment and the report).
struct DelayCount: Encodable {
    var late = 0
    var lateAtDropouts = 0

    mutating func add(detected: [TimedGestureEvent], session: SimulatedSession) {
        let fps = session.stream.fps
        for truth in session.truth {
            let kind = EventScoring.kind(type: truth.type, direction: truth.direction)
            let nearest = detected.filter { EventScoring.kind(type: $0.event.typeName, direction: $0.event.direction) == kind }
                .map { Int(($0.time * fps).rounded()) }.min { abs($0 - truth.frame) < abs($1 - truth.frame) }
            guard let frame = nearest, abs(frame - truth.frame) > 3, abs(frame - truth.frame) <= 15 else { continue }
            late += 1
            let range = min(frame, truth.frame)...max(frame, truth.frame)
            if range.contains(where: { session.stream.frames[$0].face == nil }) { lateAtDropouts += 1 }
        }
    }
}

/// One mode's figures.
struct ModeResult: Encodable {
    struct Kind: Encodable {
        var precision: Double
        var recall: Double
        var truePositives: Int
        var falsePositives: Int
        var falseNegatives: Int
        var within3Frames: Double
        var maxFrameError: Int
        var meanFrameError: Double
        var medianFrameError: Double
    }

    var kinds: [String: Kind]
    var overall: Kind
    var lateBeyond3Frames: DelayCount
    /// Looks, nods and shakes the scripts held.
    var scriptedGestures: Int

    init(scores: [String: EventScore], delays: DelayCount, scriptedGestures: Int) {
        func kind(_ s: EventScore) -> Kind {
            Kind(
                precision: s.precision, recall: s.recall, truePositives: s.truePositives, falsePositives: s.falsePositives,
                falseNegatives: s.falseNegatives, within3Frames: s.within(3), maxFrameError: s.maxFrameError, meanFrameError: s.meanFrameError,
                medianFrameError: s.medianFrameError)
        }
        kinds = scores.mapValues(kind)
        overall = kind(scores.values.reduce(into: EventScore()) { $0.add($1) })
        lateBeyond3Frames = delays
        self.scriptedGestures = scriptedGestures
    }
}

/// `gestures bench --json`.
struct GesturesBenchResult: TextReport {
    var sessions: Int
    var seconds: Double
    var noisePixels: Double
    var dropoutRate: Double
    var modes: [String: ModeResult] = [:]
    var restFalseEvents = 0
    var restlessFalseEvents = 0
    var approachFalseEvents = 0
    var framesPerSecond = 0.0

    var text: String {
        var lines = [
            String(
                format: "Head gestures on %d simulated %.0f s sessions (%.1f px landmark noise, %.0f %% dropouts, 30 fps):",
                sessions, seconds, noisePixels, dropoutRate * 100)
        ]
        let order = ["discrete", "continuous", "varied discrete", "varied continuous", "conversational discrete", "conversational continuous"]
        for (name, mode) in modes.sorted(by: { (order.firstIndex(of: $0.key) ?? 9) < (order.firstIndex(of: $1.key) ?? 9) }) {
            let what =
                name.hasPrefix("varied")
                ? "deliberate nods and shakes of every speed and size, "
                : name.hasPrefix("conversational") ? "small nods and shakes (10-15° per swing) at calm rest, " : ""
            lines.append("\(name) mode: \(what)\(mode.scriptedGestures) scripted gestures")
            var table = TextTable(
                [
                    .left("event", 22), .right("precision", 9), .right("recall", 8), .right("within 3 frames", 17), .right("max error", 11),
                    .right("mean / median error", 21), .left("(matched, false, missed)", gap: 2),
                ], indent: "  ")
            for (kind, k) in mode.kinds.sorted(by: { $0.key < $1.key }) + [("all", mode.overall)] {
                table.add([
                    kind, String(format: "%.3f", k.precision), String(format: "%.3f", k.recall), String(format: "%.1f %%", k.within3Frames * 100),
                    "\(k.maxFrameError)", String(format: "%.2f / %.1f", k.meanFrameError, k.medianFrameError),
                    "(\(k.truePositives), \(k.falsePositives), \(k.falseNegatives))",
                ])
            }
            lines += table.lines
            lines.append(
                "  later than 3 frames: \(mode.lateBeyond3Frames.late), of them \(mode.lateBeyond3Frames.lateAtDropouts) with the face missed in between"
            )
        }
        lines.append("resting (\(sessions / 2) × \(Int(seconds)) s, \(noisePixels) px noise): \(restFalseEvents) gesture events")
        lines.append(
            "resting restlessly (\(sessions / 2) × \(Int(seconds)) s, sway up to \(Int(GestureScenario.restlessSway))° per sine): \(restlessFalseEvents) gesture events"
        )
        lines.append("leaning in and out (\(sessions / 2) × \(Int(seconds)) s): \(approachFalseEvents) gesture events")
        lines.append(String(format: "engine: %.0f frames per second (%.2f µs per frame) on one core", framesPerSecond, 1e6 / framesPerSecond))
        return lines.joined(separator: "\n")
    }
}
