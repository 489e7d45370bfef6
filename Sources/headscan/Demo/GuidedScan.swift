import Feedback
import Foundation
import Markers
import Recording
import Simulation

/// A simulated scan in which the operator follows the scan guide: every rendered frame goes
/// through the marker detector and the guide, as on the phone, and is written to the scan
/// file; the guide's instructions steer the simulated phone.
struct GuidedScan {
    /// What the scan produced besides the file.
    struct Outcome {
        var frames: [FrameTruth]
        var timeline: FeedbackTimeline
        var summary: GuideSummary
    }

    let simulator: Simulator
    /// Seconds the therapist goes on after hearing "done" before stopping the recording;
    /// nil to record the simulator's whole length.
    var stopAfterDone: Double? = 2

    /// Records the scan into `url`, reporting frames done.
    func record(to url: URL, progress: (Int, Int) -> Void) throws -> Outcome {
        let layout = simulator.configuration.layout
        let writer = try ScanWriter(url: url, header: header())
        let detector = MarkerDetector(dictionary: try layout.dictionary())
        var settings = FeedbackSettings()
        settings.markerSide = layout.markerSide
        var guide = try ScanGuide(settings: settings, layout: layout)
        var outcome = Outcome(frames: [], timeline: FeedbackTimeline(), summary: GuideSummary())
        var steering = Steering.none
        var region: (HeadRegion, Double)?
        while let simulated = simulator.nextFrame(steering: steering) {
            let frame = simulated.frame
            try writer.append(frame)
            let update = guide.update(FrameObservation(
                timestamp: frame.timestamp, width: frame.color.width, height: frame.color.height,
                detected: detector.detect(in: frame.color), depth: frame.depth))
            outcome.timeline.add(update, guide: guide)
            outcome.summary.add(update, guide: guide)
            outcome.frames.append(simulated.truth)
            steering = FeedbackBenchCommand.follow(update, region: &region)
            progress(outcome.frames.count, simulator.frameCount)
            if let done = outcome.timeline.completedAt, let wait = stopAfterDone, outcome.timeline.duration >= done + wait {
                progress(simulator.frameCount, simulator.frameCount)
                break
            }
        }
        try writer.close()
        return outcome
    }

    private func header() -> ScanHeader {
        let k = simulator.configuration.intrinsics
        let c = simulator.configuration
        return ScanHeader(
            device: "simulator (headscan demo)", appVersion: HeadScanVersion.current, colorIntrinsics: k, depthIntrinsics: k,
            capLayoutName: "standard-57", createdAt: Date(),
            metadata: [
                "scenario": c.scenario.rawValue, "seed": "\(c.seed)", "cvai": "\(c.head.cvai)",
                "flatSide": c.head.flatSide.rawValue, "operator": "follows the feedback",
            ])
    }
}
