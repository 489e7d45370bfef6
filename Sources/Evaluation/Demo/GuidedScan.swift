import Feedback
import Foundation
import Markers
import Recording
import Scanning
import Simulation

/// A simulated scan in which the operator follows the scan guide: every rendered frame goes
/// through the marker detector and the guide, as on the phone, and is written to the scan
/// file; the guide's instructions steer the simulated phone.
public struct GuidedScan {
    /// What the scan produced besides the file.
    public struct Outcome {
        public var frames: [FrameTruth]
        public var timeline: FeedbackTimeline
        public var summary: GuideSummary
    }

    public let simulator: Simulator
    /// Seconds the therapist goes on after hearing "done" before stopping the recording;
    /// nil to record the simulator's whole length.
    public var stopAfterDone: Double? = 2

    public init(simulator: Simulator, stopAfterDone: Double? = 2) {
        self.simulator = simulator
        self.stopAfterDone = stopAfterDone
    }

    /// Records the scan into `url`, reporting frames done.
    public func record(to url: URL, progress: (Int, Int) -> Void) throws -> Outcome {
        let layout = simulator.configuration.layout
        var settings = FeedbackSettings()
        settings.markerSide = layout.markerSide
        let therapist = SimulatedOperator()
        let record = RecordSink()
        let pipeline = ScanPipeline(
            guide: try FrameGuide(layout: layout, settings: settings, sinks: [record, therapist]),
            writer: try ScanWriter(url: url, header: header()))
        var frames: [FrameTruth] = []
        while let simulated = simulator.nextFrame(steering: therapist.steering) {
            try pipeline.process(simulated.frame)
            frames.append(simulated.truth)
            progress(frames.count, simulator.frameCount)
            if let done = record.timeline.completedAt, let wait = stopAfterDone, record.timeline.duration >= done + wait {
                progress(simulator.frameCount, simulator.frameCount)
                break
            }
        }
        try pipeline.finish()
        return Outcome(frames: frames, timeline: record.timeline, summary: record.summary)
    }

    private func header() -> ScanHeader {
        let k = simulator.configuration.intrinsics
        let c = simulator.configuration
        return ScanHeader(
            device: "simulator (headscan demo)", appVersion: HeadScanVersion.current, colorIntrinsics: k, depthIntrinsics: k,
            layout: simulator.configuration.layout, createdAt: Date(),
            metadata: [
                "scenario": c.scenario.rawValue, "seed": "\(c.seed)", "cvai": "\(c.head.cvai)",
                "flatSide": c.head.flatSide.rawValue, "operator": "follows the feedback",
            ])
    }
}
