import ArgumentParser
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
        let simulator = try Simulator(.init(scenario: .restless, seed: 1, seconds: Double(rendered) / Simulator.frameRate + 1))
        var frames: [RGBDFrame] = []
        var bar = ProgressBar("Rendering")
        while frames.count < rendered, let f = simulator.nextFrame() {
            frames.append(f.frame)
            bar.update(frames.count, of: rendered)
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bench-pipeline-\(UUID().uuidString).hscan")
        defer { try? FileManager.default.removeItem(at: url) }
        let k = simulator.configuration.intrinsics
        let writer = try ScanWriter(url: url, header: ScanHeader(
            device: "simulator (bench pipeline)", appVersion: HeadScanVersion.current, colorIntrinsics: k, depthIntrinsics: k,
            capLayoutName: CapLayout.standard.name))
        let target: any ScanFrameWriter = writerFps.map { PacedWriter(writer, framesPerSecond: $0) } ?? writer
        let live = LiveScan(guide: try FrameGuide(layout: .standard, settings: FeedbackSettings()), writer: target, writerBacklogLimit: writerBacklog)
        let running = Task { try await live.run() }
        let late = try await play(frames, into: live)
        live.end()
        let statistics = try await running.value
        let reader = try ScanReader(url: url)
        let result = PipelineBenchResult(
            statistics, seconds: seconds, fps: fps, fileFrames: reader.frameCount, damaged: reader.verify().count,
            bytes: (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0, cameraLateMax: late,
            writerFps: writerFps, peakMegabytes: PeakMemory.megabytes())
        try outputOptions.emit(result)
    }

    /// Submits a frame at each camera tick; returns how late the camera itself ran at worst.
    private func play(_ frames: [RGBDFrame], into live: LiveScan) async throws -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        let count = Int(seconds * fps)
        var late = 0.0
        var bar = ProgressBar("Scanning live")
        for n in 0..<count {
            let due = start + .seconds(Double(n) / fps)
            try await clock.sleep(until: due)
            late = max(late, (clock.now - due).seconds)
            var frame = frames[n % frames.count]
            frame.timestamp = Double(n) / fps
            // A camera delivers new buffers for every frame: copy them, so that frames waiting
            // for the writer take the memory they take on the phone.
            frame.color.pixels.withUnsafeMutableBufferPointer { _ in }
            frame.depth.pixels.withUnsafeMutableBufferPointer { _ in }
            live.submit(frame)
            bar.update(n + 1, of: count)
        }
        return late
    }
}

/// What `bench pipeline` reports.
struct PipelineBenchResult: TextReport {
    var seconds: Double
    var fps: Double
    var submitted: Int
    var written: Int
    var fileFrames: Int
    var damagedFrames: Int
    var missingFrames: Int
    var guided: Int
    var skippedByGuide: Int
    var guideLatencyMedianMS: Double
    var guideLatencyP95MS: Double
    var guideLatencyMaxMS: Double
    var writerBacklogMax: Int
    var droppedForWriter: Int
    var writerFps: Double?
    var cameraLateMaxMS: Double
    var megabytes: Double
    /// The process's peak resident memory, when the system tells it.
    var peakMegabytes: Double?

    init(
        _ s: LiveScanStatistics, seconds: Double, fps: Double, fileFrames: Int, damaged: Int, bytes: Int, cameraLateMax: Double,
        writerFps: Double?, peakMegabytes: Double?
    ) {
        self.seconds = seconds
        self.fps = fps
        submitted = s.submitted
        written = s.written
        self.fileFrames = fileFrames
        damagedFrames = damaged
        missingFrames = s.written - fileFrames + damaged
        droppedForWriter = s.droppedForWriter
        self.writerFps = writerFps
        self.peakMegabytes = peakMegabytes
        guided = s.guided
        skippedByGuide = s.skippedByGuide
        guideLatencyMedianMS = (s.latency(quantile: 0.5) ?? 0) * 1000
        guideLatencyP95MS = (s.latency(quantile: 0.95) ?? 0) * 1000
        guideLatencyMaxMS = (s.latency(quantile: 1) ?? 0) * 1000
        writerBacklogMax = s.writerBacklogMax
        cameraLateMaxMS = cameraLateMax * 1000
        megabytes = Double(bytes) / 1_000_000
    }

    var text: String {
        [
            String(format: "%.0f s at %.0f frames/s: %d frames from the camera, %d written, %d in the file (%d damaged, %d missing), %.0f MB",
                   seconds, fps, submitted, written, fileFrames, damagedFrames, missingFrames, megabytes),
            String(format: "guide: %d frames guided, %d skipped for newer ones (%.1f %%)", guided, skippedByGuide,
                   100 * Double(skippedByGuide) / Double(max(1, submitted))),
            String(format: "guide latency (arrival to verdict): median %.1f ms, p95 %.1f ms, max %.1f ms", guideLatencyMedianMS, guideLatencyP95MS, guideLatencyMaxMS),
            String(format: "writer%@: backlog at most %d frames, %d frames not written because it lagged; camera ticks late by at most %.1f ms",
                   writerFps.map { String(format: " held to %.0f frames/s", $0) } ?? "", writerBacklogMax, droppedForWriter, cameraLateMaxMS),
            peakMegabytes.map { String(format: "peak resident memory %.0f MB", $0) } ?? "peak resident memory: not known on this system",
        ].joined(separator: "\n")
    }
}

/// A writer held to a frame rate, as a slow disk or a hot phone would be.
final class PacedWriter: ScanFrameWriter, @unchecked Sendable {
    private let inner: ScanWriter
    private let interval: Double
    private var next = ContinuousClock.now

    init(_ inner: ScanWriter, framesPerSecond: Double) {
        self.inner = inner
        interval = 1 / framesPerSecond
    }

    func append(_ frame: RGBDFrame) throws {
        let now = ContinuousClock.now
        if next > now { Thread.sleep(forTimeInterval: (next - now).seconds) }
        next = max(next, now) + .seconds(interval)
        try inner.append(frame)
    }

    func close() throws { try inner.close() }
}

/// The process's peak resident memory.
enum PeakMemory {
    /// Megabytes, from /proc/self/status on Linux; nil elsewhere.
    static func megabytes() -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = Double(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "")
        else { return nil }
        return kilobytes / 1024
    }
}
