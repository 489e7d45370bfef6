import ArgumentParser
import Feedback
import Foundation
import Geometry
import Markers
import Scanning
import Simulation

/// `headscan bench feedback`: the scan guide's cost per frame and what its feedback is worth
/// to an operator, in a closed loop with the simulator.
struct FeedbackBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feedback",
        abstract: "Benchmark the scan guide: ms per frame with 60 markers, and follower vs ignorer in closed loop.",
        discussion: """
            Speed: a 60-marker cap, all 60 markers in every frame (moving, some without depth), \
            timed over many frames on one core. Closed loop: the simulated operator either \
            follows the feedback (too close → step back, a direction → move the phone that \
            way, in short strokes with pauses after a reaction time, region guidance → go \
            round there) or ignores it; reports the time the raw position was not ideal and \
            when the scan completed. Frames come from the \
            simulator's fast path (no rendering; corners projected exactly; depth missing \
            when the phone is nearer than 0.2 m to the head's centre). --trace writes each \
            run's frames as CSV, to see where out-of-position time comes from.

            Example:
              swift run -c release headscan bench feedback --json
            """)

    @Option(help: "Frames to time.")
    var frames = 200_000

    @Option(help: "Seconds of each closed-loop scan.")
    var seconds = 60.0

    @Option(help: "Seeds per scenario (results are averaged).")
    var seeds = 5

    @Flag(help: "Closed loop on rendered frames through the marker detector (slow, realistic) instead of exact projected corners.")
    var render = false

    @Option(help: "Scenarios for the closed loop, comma-separated.")
    var scenarios = "off-center,restless,too-close,ideal"

    @OptionGroup var outputOptions: OutputOptions

    @Option(help: "Folder to write one CSV per closed-loop run into: per frame the raw and published position, markers detected and truly visible, and the steering.")
    var trace: String?

    func run() throws {
        let speed = try measureSpeed()
        var loops: [ClosedLoopResult] = []
        for name in scenarios.split(separator: ",") {
            let scenario = try Scenario.named(String(name))
            var follower = [LoopRun](), ignorer = [LoopRun]()
            for seed in 1...UInt64(seeds) {
                follower.append(try closedLoop(scenario, follow: true, seed: seed))
                ignorer.append(try closedLoop(scenario, follow: false, seed: seed))
            }
            loops.append(ClosedLoopResult(scenario: scenario.rawValue, follower: .init(follower), ignorer: .init(ignorer)))
        }
        let result = FeedbackBenchResult(
            frames: frames, markersPerFrame: 60, msPerFrame: speed, rendered: render, closedLoop: loops)
        try outputOptions.emit(result)
    }

    private func measureSpeed() throws -> Double {
        let layout = CapLayout(
            dictionaryName: "4x4_100", markerSideMillimetres: 14,
            markers: (0..<60).map { CapMarker(id: $0, region: HeadRegion.allCases[$0 % 5]) })
        var settings = FeedbackSettings()
        settings.markerCount = 1000  // never completes, so every frame does the full work
        var guide = try ScanGuide(settings: settings, layout: layout)
        // 64 prepared frames of 60 markers on a grid that drifts; a few without depth.
        let prepared: [FrameObservation] = (0..<64).map { f in
            let dx = Double(f % 16) * 6 - 45
            return FrameObservation(timestamp: 0, width: 640, height: 480, markers: (0..<60).map { i in
                let x = 110 + Double(i % 10) * 42 + dx, y = 90 + Double(i / 10) * 50
                let d: Float = (i + f) % 17 == 0 ? .nan : 0.33
                return ObservedMarker(id: i, corners: [SIMD2(x, y), SIMD2(x + 18, y + 1), SIMD2(x + 17, y + 19), SIMD2(x - 1, y + 18)], depths: [d, 0.33, 0.33, 0.33])
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

    private func closedLoop(_ scenario: Scenario, follow: Bool, seed: UInt64) throws -> LoopRun {
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
enum LoopTrace {
    static let header = "t,raw,direction,detected,green,visible,published,steering"

    static func line(_ update: GuidanceUpdate, visible: Int, steering: Steering) -> String {
        let e = update.evidence
        return String(format: "%.3f,", update.time)
            + "\(update.raw.kind),\(update.raw.direction.rawValue),\(e.detected),\(e.green),\(visible),"
            + "\(update.published),\(describe(steering))"
    }

    private static func describe(_ steering: Steering) -> String {
        switch steering {
        case .none: "none"
        case .moveBack: "back"
        case .moveCloser: "closer"
        case .movePhone(let x, let y): String(format: "phone %+.0f %+.0f", x, y)
        case .goTo(let region): "go \(region.rawValue)"
        }
    }
}

/// One closed-loop scan.
struct LoopRun {
    var outOfPosition = 0.0
    var completed: Double?
    var progress = 0
}

/// Averages over seeds.
struct LoopStats: Encodable {
    var meanOutOfPositionSeconds: Double
    var completedRuns: Int
    var runs: Int
    var meanCompletionSeconds: Double?
    var meanProgressPercent: Double

    init(_ runs: [LoopRun]) {
        self.runs = runs.count
        meanOutOfPositionSeconds = runs.map(\.outOfPosition).reduce(0, +) / Double(max(1, runs.count))
        let done = runs.compactMap(\.completed)
        completedRuns = done.count
        meanCompletionSeconds = done.isEmpty ? nil : done.reduce(0, +) / Double(done.count)
        meanProgressPercent = Double(runs.map(\.progress).reduce(0, +)) / Double(max(1, runs.count))
    }
}

/// Follower vs ignorer in one scenario.
struct ClosedLoopResult: Encodable {
    var scenario: String
    var follower: LoopStats
    var ignorer: LoopStats
    var reductionPercent: Double

    init(scenario: String, follower: LoopStats, ignorer: LoopStats) {
        self.scenario = scenario
        self.follower = follower
        self.ignorer = ignorer
        reductionPercent = ignorer.meanOutOfPositionSeconds > 0
            ? (1 - follower.meanOutOfPositionSeconds / ignorer.meanOutOfPositionSeconds) * 100 : 0
    }
}

/// What `bench feedback` reports.
struct FeedbackBenchResult: TextReport {
    var frames: Int
    var markersPerFrame: Int
    var msPerFrame: Double
    var rendered: Bool
    var closedLoop: [ClosedLoopResult]

    var text: String {
        var lines = [
            String(format: "scan guide: %.4f ms per frame with %d markers (%d frames, one core)", msPerFrame, markersPerFrame, frames),
            rendered ? "closed loop on rendered frames through the marker detector:" : "closed loop on exact projected corners:",
        ]
        for r in closedLoop {
            func describe(_ s: LoopStats) -> String {
                String(format: "out of position %.1f s, completed %d/%d", s.meanOutOfPositionSeconds, s.completedRuns, s.runs)
                    + (s.meanCompletionSeconds.map { String(format: " (at %.1f s)", $0) } ?? "")
                    + String(format: ", progress %.0f %%", s.meanProgressPercent)
            }
            lines.append("\(r.scenario): follower \(describe(r.follower)); ignorer \(describe(r.ignorer)); "
                + String(format: "%.0f %% less time out of position", r.reductionPercent))
        }
        return lines.joined(separator: "\n")
    }
}
