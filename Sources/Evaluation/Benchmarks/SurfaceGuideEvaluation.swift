import Feedback
import Foundation
import Geometry
import Markers
import Scanning
import Simulation

/// The guide without markers in a closed loop with the simulator: what an operator following
/// (or ignoring) it achieves, and whether the surface it says was seen truly was.
public enum SurfaceGuideEvaluation {
    /// One simulated scan under `capFit` (no stickers) in which the operator follows (or
    /// ignores) the guide without markers; with `trace`, each frame's decision is written to
    /// that file as CSV (`SurfaceLoopTrace`).
    public static func closedLoop(
        _ scenario: Scenario, capFit: CapFit, follow: Bool, seed: UInt64, seconds: Double, settings: FeedbackSettings = FeedbackSettings(),
        trace: URL? = nil
    ) throws -> SurfaceLoopRun {
        var configuration = Simulator.Configuration(scenario: scenario, seed: seed, seconds: seconds)
        configuration.capFit = capFit
        let simulator = try Simulator(configuration)
        let therapist = SimulatedOperator(follows: follow)
        var guideSettings = settings
        guideSettings.withoutMarkers = true
        var run = SurfaceLoopRun()
        // The truth: what the camera saw from where it truly was, on the frames the guide counted.
        var truth = HeadCoverage(viewAngleDegrees: guideSettings.viewAngle)
        var trueCamera = SIMD3<Double>.zero
        var lines = trace.map { _ in [SurfaceLoopTrace.header] }
        let tally = ClosureSink { guided, _ in
            let update = guided.update
            lines?.append(SurfaceLoopTrace.line(update, trueCamera: trueCamera, steering: therapist.steering))
            run.frames += 1
            if update.raw.kind != .ideal { run.outOfPosition += 1 / Simulator.frameRate }
            if update.evidence.head?.placed == false { run.framesNotPlaced += 1 }
            if update.raw.kind == .ideal, update.evidence.head?.camera != nil { truth.see(from: trueCamera) }
            if update.completed, run.completed == nil {
                run.completed = update.time
                run.trueSharesAtCompletion = HeadRegion.allCases.map { truth.share(of: $0) }
            }
            run.progress = update.progress.percent
        }
        let frameGuide = try FrameGuide(layout: .standard, settings: guideSettings, sinks: [therapist, tally])
        let pipeline = ScanPipeline(guide: frameGuide)
        while let rendered = simulator.nextFrame(steering: therapist.steering) {
            let m = rendered.truth.meshFromCamera
            trueCamera = SIMD3(m[3], m[7], m[11]) - Simulator.vaultCentre
            try pipeline.process(rendered.frame)
        }
        pipeline.guide.finish()
        if let trace, let lines { try lines.joined(separator: "\n").write(to: trace, atomically: true, encoding: .utf8) }
        let guide = pipeline.guide.guide
        run.guideShares = HeadRegion.allCases.map { guide.surfaceShare(of: $0) ?? 0 }
        run.trueShares = HeadRegion.allCases.map { truth.share(of: $0) }
        run.featuresSeen = guide.progress.featuresSeen.map(\.rawValue)
        return run
    }
}

/// The CSV lines of a closed-loop scan without markers: per frame the raw and published
/// position, what the depth showed (share of the middle without depth, the head's distance,
/// whether the view was placed), the true distance from the camera to the vault's centre, and
/// the steering.
public enum SurfaceLoopTrace {
    public static let header = "t,raw,direction,missingDepth,distance,placed,trueDistance,published,steering"

    public static func line(_ update: GuidanceUpdate, trueCamera: SIMD3<Double>, steering: Steering) -> String {
        let head = update.evidence.head
        let distance = head?.distance.map { String(format: "%.3f", $0) } ?? ""
        let placed = head?.placed.map { $0 ? "yes" : "no" } ?? ""
        return String(format: "%.3f,", update.time) + "\(update.raw.kind),\(update.raw.direction.rawValue),"
            + String(format: "%.2f,", head?.missingDepth ?? 0) + "\(distance),\(placed),"
            + String(format: "%.3f,", (trueCamera * trueCamera).sum().squareRoot()) + "\(update.published),\(LoopTrace.describe(steering))"
    }
}

/// One closed-loop scan without markers.
public struct SurfaceLoopRun: Sendable, Encodable {
    public var frames = 0
    /// Seconds the frame's own class was not ideal.
    public var outOfPosition = 0.0
    /// Frames with the head in view that the tracking could not place.
    public var framesNotPlaced = 0
    /// When the guide said the scan was complete.
    public var completed: Double?
    public var progress = 0
    /// Each region's share of surface seen (front, left, right, back, top), by the guide and in
    /// truth (from the true camera positions on the same frames).
    public var guideShares: [Double] = []
    public var trueShares: [Double] = []
    /// The true shares when the guide said complete.
    public var trueSharesAtCompletion: [Double]?
    public var featuresSeen: [String] = []

    /// The largest difference between the guide's and the true share of a region.
    public var largestShareError: Double {
        zip(guideShares, trueShares).map { abs($0 - $1) }.max() ?? 0
    }
}
