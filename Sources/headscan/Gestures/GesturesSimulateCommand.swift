import ArgumentParser
import Foundation
import HeadGestures

/// `headscan gestures simulate`: a simulated face stream and its true gestures.
struct GesturesSimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Write a simulated face stream (FACES.jsonl) and the gestures truly in it.",
        discussion: """
            A 3D face turns and tilts through a script (looks in all four directions, nods, \
            shakes, rests, leaning in and out, the face leaving the picture) in front of a \
            640×480 pinhole camera at 30 frames per second; its eyes and mouth are projected, \
            given landmark noise and detector dropouts, and written one frame per line as \
            `headscan gestures` reads them. The truth JSON lists the script and the events an \
            exact detector would report with the given settings (type, direction, time and \
            frame). The same seed gives the same files.

            Scenarios: mixed (every gesture, rests between), varied (deliberate nods and shakes \
            of every speed, often in quick succession), conversational (small nods and shakes \
            of 10-15° per swing, calm rests between), rest (nothing should happen), restless \
            (resting with a large sway; nothing should happen), approach (leaning in and out; \
            nothing should happen).

            Examples:
              headscan gestures simulate --out faces.jsonl --truth truth.json
              headscan gestures simulate --scenario approach --seconds 30 --device portrait --out lean.jsonl
            """)

    @Option(help: "mixed, varied, conversational, rest, restless or approach.")
    var scenario = GestureScenario.mixed

    @Option(help: "Seed of every random choice.")
    var seed: UInt64 = 1

    @Option(help: "Length in seconds (at least; a script's last step finishes).")
    var seconds = 60.0

    @Option(help: "Standard deviation of each landmark coordinate, pixels.")
    var noise = 2.0

    @Option(help: "Share of frames the face detector misses (0-1), in runs of 1-3 frames.")
    var dropouts = 0.02

    @Option(help: "How the phone is held: portrait, portraitUpsideDown, landscapeLeft or landscapeRight (default: the picture is stored upright).")
    var device: DeviceOrientation?

    @Option(help: "Gesture settings the truth is judged with: a JSON file or inline JSON.")
    var settings: String?

    @Option(help: "The face stream to write (.jsonl).")
    var out: String

    @Option(help: "The truth JSON to write.")
    var truth: String?

    func validate() throws {
        guard noise >= 0, noise.isFinite else { throw ValidationError("--noise must be a non-negative number of pixels") }
        guard (0..<1).contains(dropouts) else { throw ValidationError("--dropouts must lie in 0..<1") }
        guard seconds > 0, seconds <= 3600 else { throw ValidationError("--seconds must lie in (0, 3600]") }
    }

    func run() throws {
        let settings = try loadGestureSettings(settings)
        var simulator = HeadMotionSimulator()
        simulator.noisePixels = noise
        simulator.dropoutRate = dropouts
        if let device {
            simulator.orientation = device.frontCameraImageOrientation
            if device == .portrait || device == .portraitUpsideDown {
                let c = SimulatedFace.camera
                simulator.camera = .init(fx: c.fy, fy: c.fx, cx: c.cy, cy: c.cx, width: c.height, height: c.width)
            }
        }
        let session = try SimulatedSession(scenario: scenario, seconds: seconds, seed: seed, simulator: simulator, settings: settings)
        let lines = session.stream.frames.map(FaceStreamFormat.line(for:)).joined(separator: "\n") + "\n"
        try write(Data(lines.utf8), to: out)
        if let truth {
            let record = GestureTruthRecord(session: session, scenario: scenario, seed: seed, noise: noise, dropouts: dropouts)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            try write(try encoder.encode(record), to: truth)
        }
        let kinds = Dictionary(grouping: session.truth, by: \.type).mapValues(\.count).sorted { $0.key < $1.key }
        print("\(session.stream.frames.count) frames (\(String(format: "%.1f", session.stream.script.seconds)) s) → \(out)")
        print(
            "true events: " + (kinds.isEmpty ? "none" : kinds.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
                + (truth.map { " → \($0)" } ?? ""))
    }

    private func write(_ data: Data, to path: String) throws {
        do { try data.write(to: fileURL(path)) } catch { throw GestureError.fileAccess(path: path, error.localizedDescription) }
    }
}

extension GestureScenario: ExpressibleByArgument {}
extension DeviceOrientation: ExpressibleByArgument {}

/// The truth file of `gestures simulate`.
struct GestureTruthRecord: Encodable {
    struct Step: Encodable {
        var start: Double
        var end: Double
        var motion: String
        var degrees: Double?
    }

    var scenario: String
    var seed: UInt64
    var frames: Int
    var fps: Double
    var noisePixels: Double
    var dropoutRate: Double
    var script: [Step]
    var events: [TruthEvent]

    init(session: SimulatedSession, scenario: GestureScenario, seed: UInt64, noise: Double, dropouts: Double) {
        self.scenario = scenario.rawValue
        self.seed = seed
        frames = session.stream.frames.count
        fps = session.stream.fps
        noisePixels = noise
        dropoutRate = dropouts
        script = session.stream.script.steps.map { Step(start: $0.start, end: $0.end, motion: $0.motion.name, degrees: $0.motion.degrees) }
        events = session.truth
    }
}
