import ArgumentParser
import Evaluation
import Feedback
import Foundation
import Markers
import Recording
import Scanning
import Simulation

/// `headscan bench pipeline`: the live scan pipeline fed like a camera, in real time.
struct PipelineBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pipeline",
        abstract: "Benchmark live scanning: a simulated camera at 30 frames/s through writing and the guide.",
        discussion: """
            Renders a few seconds of a simulated scan first, then plays them in a loop as a \
            camera would: one frame every 1/30 s, never waiting for the pipeline. Every frame \
            must reach the scan file; the guide takes the newest frame whenever it is free. \
            Reports frames delivered, written and guided, frames the guide skipped, the guide's \
            latency (arrival to verdict) and the writer's largest backlog, and checks the file \
            frame by frame. With --writer-fps the writer is held to that many frames a second \
            (a slow disk, a hot phone): at most one second of frames waits for it, newer ones \
            are counted as not written, the guide keeps up, and the peak memory stays bounded. \
            Run it on one core to see the phone's worst case:

            Examples:
              taskset -c 0 swift run -c release headscan bench pipeline --seconds 60 --json
              swift run -c release headscan bench pipeline --seconds 60 --writer-fps 10
            """)

    @Option(help: "Seconds of live scanning.")
    var seconds = 60.0

    @Option(help: "Camera frames per second.")
    var fps = 30.0

    @Option(help: "Frames rendered up front and played in a loop.")
    var rendered = 120

    @Option(help: "Hold the writer to at most this many frames a second (default: as fast as it goes).")
    var writerFps: Double?

    @Option(help: "Frames that may wait for the writer before newer ones are not written.")
    var writerBacklog = LiveScan.defaultWriterBacklogLimit

    @OptionGroup var outputOptions: OutputOptions

    func validate() throws {
        guard seconds > 0, seconds <= 600 else { throw ValidationError("--seconds must be in 0...600") }
        guard fps >= 1, fps <= 120 else { throw ValidationError("--fps must be in 1...120") }
        guard rendered >= 1, rendered <= 900 else { throw ValidationError("--rendered must be in 1...900") }
        if let writerFps, !(writerFps >= 0.5 && writerFps <= 120) { throw ValidationError("--writer-fps must be in 0.5...120") }
        guard writerBacklog >= 1, writerBacklog <= 100_000 else { throw ValidationError("--writer-backlog must be in 1...100000") }
    }

    func run() async throws {
        var rendering = ProgressBar("Rendering"), scanning = ProgressBar("Scanning live")
        let result = try await PipelineEvaluation(
            seconds: seconds, fps: fps, rendered: rendered, writerFps: writerFps, writerBacklog: writerBacklog
        ).run(rendering: { rendering.update($0, of: $1) }, scanning: { scanning.update($0, of: $1) })
        try outputOptions.emit(result)
    }
}

extension PipelineBenchResult: TextReport {
    var text: String {
        [
            String(
                format: "%.0f s at %.0f frames/s: %d frames from the camera, %d written, %d in the file (%d damaged, %d missing), %.0f MB",
                seconds, fps, submitted, written, fileFrames, damagedFrames, missingFrames, megabytes),
            String(
                format: "guide: %d frames guided, %d skipped for newer ones (%.1f %%)", guided, skippedByGuide,
                100 * Double(skippedByGuide) / Double(max(1, submitted))),
            String(
                format: "guide latency (arrival to verdict): median %.1f ms, p95 %.1f ms, max %.1f ms", guideLatencyMedianMS, guideLatencyP95MS,
                guideLatencyMaxMS),
            String(
                format: "writer%@: backlog at most %d frames, %d frames not written because it lagged; camera ticks late by at most %.1f ms",
                writerFps.map { String(format: " held to %.0f frames/s", $0) } ?? "", writerBacklogMax, droppedForWriter, cameraLateMaxMS),
            peakMegabytes.map { String(format: "peak resident memory %.0f MB", $0) } ?? "peak resident memory: not known on this system",
        ].joined(separator: "\n")
    }
}
