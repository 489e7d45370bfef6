import Feedback
import Foundation
import Geometry
import Markers
import Scanning
import Simulation

/// The scan guide measured: its cost per frame, and what its feedback is worth to an
/// operator in a closed loop with the simulator.
public enum GuideEvaluation {
    /// Milliseconds the scan guide takes per frame of 60 markers, over `frames` frames.
    public static func msPerFrame(frames: Int) throws -> Double {
        let layout = CapLayout(
            dictionaryName: "4x4_100", markerSideMillimetres: 14,
            markers: (0..<60).map { CapMarker(id: $0, region: HeadRegion.allCases[$0 % 5]) })
        var settings = FeedbackSettings()
        settings.markerCount = 1000  // never completes, so every frame does the full work
        var guide = try ScanGuide(settings: settings, layout: layout)
        // 64 prepared frames of 60 markers on a grid that drifts; a few without depth.
        let prepared: [FrameObservation] = (0..<64).map { f in
            let dx = Double(f % 16) * 6 - 45
            return FrameObservation(
                timestamp: 0, width: 640, height: 480,
                markers: (0..<60).map { i in
                    let x = 110 + Double(i % 10) * 42 + dx, y = 90 + Double(i / 10) * 50
                    let d: Float = (i + f) % 17 == 0 ? .nan : 0.33
                    return ObservedMarker(
                        id: i, corners: [SIMD2(x, y), SIMD2(x + 18, y + 1), SIMD2(x + 17, y + 19), SIMD2(x - 1, y + 18)],
                        depths: [d, 0.33, 0.33, 0.33])
                })
        }
        var sink = 0
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            for k in 0..<frames {
                var frame = prepared[k & 63]
                frame.timestamp = Double(k) / 30
                sink &+= guide.update(frame).events.count
            }
        }
        if sink == Int.min { print(sink) }
        return elapsed.seconds * 1000 / Double(frames)
    }

    /// One simulated scan in which the operator follows (or ignores) the guide; with
    /// `traceFolder`, each frame's decision is written there as CSV.
    public static func closedLoop(
        _ scenario: Scenario, follow: Bool, seed: UInt64, seconds: Double, render: Bool, traceFolder trace: String?
    ) throws -> LoopRun {
        let simulator = try Simulator(.init(scenario: scenario, seed: seed, seconds: seconds))
        let k = simulator.configuration.intrinsics
        let therapist = SimulatedOperator(follows: follow)
        var run = LoopRun()
        var lines = trace.map { _ in [LoopTrace.header] }
        var visible = -1
        let tally = ClosureSink { guided, _ in
            let update = guided.update
            if update.raw.kind != .ideal { run.outOfPosition += 1 / Simulator.frameRate }
            if update.completed, run.completed == nil { run.completed = update.time }
            run.progress = update.progress.percent
            lines?.append(LoopTrace.line(update, visible: visible, steering: therapist.steering))
        }
        // The operator hears a frame before the tally logs what they will do about it.
        let pipeline = ScanPipeline(guide: try FrameGuide(layout: .standard, settings: FeedbackSettings(), sinks: [therapist, tally]))
        while true {
            if render {
                guard let rendered = simulator.nextFrame(steering: therapist.steering) else { break }
                visible = rendered.truth.markers.count
                try pipeline.process(rendered.frame)
            } else {
                guard let truth = simulator.advance(steering: therapist.steering) else { break }
                visible = truth.markers.count
                pipeline.guide.guide(truth.exactObservation(intrinsics: k), index: truth.index)
            }
        }
        pipeline.guide.finish()
        if let trace, let lines {
            let name = "\(scenario.rawValue)-\(follow ? "follow" : "ignore")-\(seed)\(render ? "-rendered" : "").csv"
            try lines.joined(separator: "\n").write(toFile: trace + "/" + name, atomically: true, encoding: .utf8)
        }
        return run
    }
}

/// The CSV lines of `--trace`: what the guide saw and decided on each frame, and how many
/// markers were truly in view, so blind frames (markers in view, none detected) show.
public enum LoopTrace {
    public static let header = "t,raw,direction,detected,green,visible,published,steering"

    public static func line(_ update: GuidanceUpdate, visible: Int, steering: Steering) -> String {
        let e = update.evidence
        return String(format: "%.3f,", update.time)
            + "\(update.raw.kind),\(update.raw.direction.rawValue),\(e.detected),\(e.green),\(visible),"
            + "\(update.published),\(describe(steering))"
    }

    /// The steering in a word or two.
    public static func describe(_ steering: Steering) -> String {
        switch steering {
        case .none: "none"
        case .moveBack: "back"
        case .moveCloser: "closer"
        case .movePhone(let x, let y): String(format: "phone %+.0f %+.0f", x, y)
        case .goTo(let region): "go \(region.rawValue)"
        case .goBack: "walk back"
        case .findHead: "find the head"
        }
    }
}

/// One closed-loop scan.
public struct LoopRun {
    public var outOfPosition = 0.0
    public var completed: Double?
    public var progress = 0
}

/// Averages over seeds.
public struct LoopStats: Encodable {
    public var meanOutOfPositionSeconds: Double
    public var completedRuns: Int
    public var runs: Int
    public var meanCompletionSeconds: Double?
    public var meanProgressPercent: Double

    public init(_ runs: [LoopRun]) {
        self.runs = runs.count
        meanOutOfPositionSeconds = runs.map(\.outOfPosition).reduce(0, +) / Double(max(1, runs.count))
        let done = runs.compactMap(\.completed)
        completedRuns = done.count
        meanCompletionSeconds = done.isEmpty ? nil : done.reduce(0, +) / Double(done.count)
        meanProgressPercent = Double(runs.map(\.progress).reduce(0, +)) / Double(max(1, runs.count))
    }
}

/// Follower vs ignorer in one scenario.
public struct ClosedLoopResult: Encodable {
    public var scenario: String
    public var follower: LoopStats
    public var ignorer: LoopStats
    public var reductionPercent: Double

    public init(scenario: String, follower: LoopStats, ignorer: LoopStats) {
        self.scenario = scenario
        self.follower = follower
        self.ignorer = ignorer
        reductionPercent =
            ignorer.meanOutOfPositionSeconds > 0
            ? (1 - follower.meanOutOfPositionSeconds / ignorer.meanOutOfPositionSeconds) * 100 : 0
    }
}
