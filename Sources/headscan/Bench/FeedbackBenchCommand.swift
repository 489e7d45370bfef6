import ArgumentParser
import Evaluation
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

            --without-markers runs the guide that follows the head's surface instead of the \
            cap's markers, on rendered frames of a cap without stickers (--caps: printed, \
            plain; bare-light, bare-dark: no cap, hair 3 mm): the position from the head in \
            the depth picture, progress as the share of each region's surface seen from where \
            the tracking placed the camera. Beside the loop's figures it gives, per region, \
            how far the guide's share of surface seen lies from the true one (the true camera \
            positions on the same frames), and the least true share of any region when the \
            guide said the scan was complete.

            Examples:
              swift run -c release headscan bench feedback --json
              swift run -c release headscan bench feedback --without-markers --caps printed,bare-dark --seconds 30 --seeds 3
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

    @Option(
        help:
            "Folder to write one CSV per closed-loop run into: per frame the raw and published position, markers detected and truly visible, and the steering."
    )
    var trace: String?

    @Flag(help: "Run the guide without markers (the head's surface) on rendered caps without stickers.")
    var withoutMarkers = false

    @Option(help: "With --without-markers: the coverings, comma-separated: printed, plain, bare-light, bare-dark.")
    var caps = "printed"

    func run() throws {
        if withoutMarkers { return try runWithoutMarkers() }
        let speed = try GuideEvaluation.msPerFrame(frames: frames)
        var loops: [ClosedLoopResult] = []
        for name in scenarios.split(separator: ",") {
            let scenario = try Scenario.named(String(name))
            var follower = [LoopRun](), ignorer = [LoopRun]()
            for seed in 1...UInt64(seeds) {
                follower.append(
                    try GuideEvaluation.closedLoop(scenario, follow: true, seed: seed, seconds: seconds, render: render, traceFolder: trace))
                ignorer.append(
                    try GuideEvaluation.closedLoop(scenario, follow: false, seed: seed, seconds: seconds, render: render, traceFolder: trace))
            }
            loops.append(ClosedLoopResult(scenario: scenario.rawValue, follower: .init(follower), ignorer: .init(ignorer)))
        }
        let result = FeedbackBenchResult(
            frames: frames, markersPerFrame: 60, msPerFrame: speed, rendered: render, closedLoop: loops)
        try outputOptions.emit(result)
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
            lines.append(
                "\(r.scenario): follower \(describe(r.follower)); ignorer \(describe(r.ignorer)); "
                    + String(format: "%.0f %% less time out of position", r.reductionPercent))
        }
        return lines.joined(separator: "\n")
    }
}
