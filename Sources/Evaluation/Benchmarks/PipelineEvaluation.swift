import Feedback
import Foundation
import Markers
import Recording
import Scanning
import Simulation

/// The live scan pipeline fed like a camera, in real time: a few seconds of a simulated scan
/// rendered first, then played in a loop, one frame every 1/fps s, never waiting for the
/// pipeline; the file is checked frame by frame afterwards.
public struct PipelineEvaluation: Sendable {
    public var seconds: Double
    public var fps: Double
    public var rendered: Int
    public var writerFps: Double?
    public var writerBacklog: Int

    public init(seconds: Double, fps: Double, rendered: Int, writerFps: Double?, writerBacklog: Int) {
        (self.seconds, self.fps, self.rendered, self.writerFps, self.writerBacklog) = (seconds, fps, rendered, writerFps, writerBacklog)
    }

    /// Renders, plays and checks; `rendering` and `scanning` hear frames done of all.
    public func run(rendering: (Int, Int) -> Void, scanning: (Int, Int) -> Void) async throws -> PipelineBenchResult {
        let simulator = try Simulator(.init(scenario: .restless, seed: 1, seconds: Double(rendered) / Simulator.frameRate + 1))
        var frames: [RGBDFrame] = []
        while frames.count < rendered, let f = simulator.nextFrame() {
            frames.append(f.frame)
            rendering(frames.count, rendered)
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bench-pipeline-\(UUID().uuidString).hscan")
        defer { try? FileManager.default.removeItem(at: url) }
        let k = simulator.configuration.intrinsics
        let writer = try ScanWriter(
            url: url,
            header: ScanHeader(
                device: "simulator (bench pipeline)", appVersion: HeadScanVersion.current, colorIntrinsics: k, depthIntrinsics: k,
                capLayoutName: CapLayout.standard.name))
        let target: any ScanFrameWriter = writerFps.map { PacedWriter(writer, framesPerSecond: $0) } ?? writer
        let live = LiveScan(guide: try FrameGuide(layout: .standard, settings: FeedbackSettings()), writer: target, writerBacklogLimit: writerBacklog)
        let running = Task { try await live.run() }
        let late = try await play(frames, into: live, progress: scanning)
        live.end()
        let statistics = try await running.value
        let reader = try ScanReader(url: url)
        let result = PipelineBenchResult(
            statistics, seconds: seconds, fps: fps, fileFrames: reader.frameCount, damaged: reader.verify().count,
            bytes: (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0, cameraLateMax: late,
            writerFps: writerFps, peakMegabytes: PeakMemory.megabytes())
        return result
    }

    /// Submits a frame at each camera tick; returns how late the camera itself ran at worst.
    private func play(_ frames: [RGBDFrame], into live: LiveScan, progress: (Int, Int) -> Void) async throws -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        let count = Int(seconds * fps)
        var late = 0.0
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
            progress(n + 1, count)
        }
        return late
    }
}

/// A writer held to a frame rate, as a slow disk or a hot phone would be.
public final class PacedWriter: ScanFrameWriter, @unchecked Sendable {
    private let inner: ScanWriter
    private let interval: Double
    private var next = ContinuousClock.now

    public init(_ inner: ScanWriter, framesPerSecond: Double) {
        self.inner = inner
        interval = 1 / framesPerSecond
    }

    public func append(_ frame: RGBDFrame) throws {
        let now = ContinuousClock.now
        if next > now { Thread.sleep(forTimeInterval: (next - now).seconds) }
        next = max(next, now) + .seconds(interval)
        try inner.append(frame)
    }

    public func close() throws { try inner.close() }
}

/// The process's peak resident memory.
public enum PeakMemory {
    /// Megabytes, from /proc/self/status on Linux; nil elsewhere.
    public static func megabytes() -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Double(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "")
        else { return nil }
        return kilobytes / 1024
    }
}

/// What `bench pipeline` reports.
public struct PipelineBenchResult: Encodable {
    public var seconds: Double
    public var fps: Double
    public var submitted: Int
    public var written: Int
    public var fileFrames: Int
    public var damagedFrames: Int
    public var missingFrames: Int
    public var guided: Int
    public var skippedByGuide: Int
    public var guideLatencyMedianMS: Double
    public var guideLatencyP95MS: Double
    public var guideLatencyMaxMS: Double
    public var writerBacklogMax: Int
    public var droppedForWriter: Int
    public var writerFps: Double?
    public var cameraLateMaxMS: Double
    public var megabytes: Double
    /// The process's peak resident memory, when the system tells it.
    public var peakMegabytes: Double?

    public init(
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
}
