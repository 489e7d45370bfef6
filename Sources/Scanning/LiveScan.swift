import Foundation
import Geometry
import Recording

/// Where a live scan's frames are written: the scan file, or in tests and benchmarks a
/// writer that is made slow on purpose.
public protocol ScanFrameWriter: AnyObject {
    func append(_ frame: RGBDFrame) throws
    func close() throws
}

extension ScanWriter: ScanFrameWriter {}

/// A camera's frames through the pipeline without ever making the camera wait.
///
/// Frames handed to `submit` are written to the scan file in order; at most
/// `writerBacklogLimit` wait for the writer, and when it lags further (a slow disk, a hot
/// phone) newer frames are not written but counted, so memory stays bounded (a TrueDepth
/// frame is about 2.4 MB). The guide takes the newest frame each time it is free, written or
/// not, so when detection falls behind it skips frames (counted) instead of lagging further
/// and further behind the operator. Pausing stops the guide's feedback and drops frames until
/// `resume`; the file then continues.
public final class LiveScan: @unchecked Sendable {
    // The writer and the guide are each touched by one loop of `run` only; the counters and
    // the pause flag live behind the lock.
    private let writer: any ScanFrameWriter
    private let guide: FrameGuide
    private let mailbox = FrameMailbox()
    private let queue: AsyncStream<RGBDFrame>
    private let queueInput: AsyncStream<RGBDFrame>.Continuation
    private let lock = NSLock()
    private var counters = LiveScanStatistics()
    private var paused = false
    private var ended = false
    private let clock = ContinuousClock()

    /// Called once, at once, when the writer fails (a full disk): the recording is over, and
    /// the operator must hear it now rather than at Stop. Set before `run`.
    public var onWriterFailure: (@Sendable (any Error) -> Void)?

    /// Frames that may wait for the writer by default: one second of the camera.
    public static let defaultWriterBacklogLimit = 30

    /// A live scan writing to `writer` and guiding with `guide`; at most `writerBacklogLimit`
    /// frames wait for the writer.
    public init(guide: FrameGuide, writer: any ScanFrameWriter, writerBacklogLimit: Int = LiveScan.defaultWriterBacklogLimit) {
        self.guide = guide
        self.writer = writer
        (queue, queueInput) = AsyncStream.makeStream(of: RGBDFrame.self, bufferingPolicy: .bufferingOldest(max(1, writerBacklogLimit)))
    }

    /// Takes a frame from the camera; returns at once.
    public func submit(_ frame: RGBDFrame) {
        lock.lock()
        guard !paused, !ended else {
            if paused { counters.droppedWhilePaused += 1 }
            lock.unlock()
            return
        }
        let index = counters.submitted
        counters.submitted += 1
        lock.unlock()
        if case .dropped = queueInput.yield(frame) {
            locked { $0.droppedForWriter += 1 }
        }
        locked { $0.writerBacklogMax = max($0.writerBacklogMax, $0.submitted - $0.written - $0.droppedForWriter) }
        mailbox.put(frame, index: index, submitted: clock.now)
    }

    /// Stops feedback and drops the camera's frames until `resume`.
    public func pause() {
        lock.lock()
        let wasPaused = paused
        paused = true
        lock.unlock()
        if !wasPaused { mailbox.pause() }
    }

    /// Takes frames again; they continue the same file.
    public func resume() {
        lock.lock()
        paused = false
        lock.unlock()
    }

    /// No more frames: `run` finishes what is queued, closes the file and returns.
    public func end() {
        lock.lock()
        ended = true
        lock.unlock()
        queueInput.finish()
        mailbox.end()
    }

    /// Writes and guides until `end()`, then finishes the sinks and closes the file.
    public func run() async throws -> LiveScanStatistics {
        async let written: Void = writeAll()
        async let guided: Void = guideAll()
        try await written
        await guided
        return statistics
    }

    /// The counts so far.
    public var statistics: LiveScanStatistics {
        lock.lock()
        defer { lock.unlock() }
        var s = counters
        s.skippedByGuide = mailbox.skipped
        return s
    }

    private func locked(_ change: (inout LiveScanStatistics) -> Void) {
        lock.lock()
        change(&counters)
        lock.unlock()
    }

    private func writeAll() async throws {
        for await frame in queue {
            do {
                try writer.append(frame)
            } catch {
                // The scan cannot go on (a full disk): the guide must not wait for frames.
                end()
                onWriterFailure?(error)
                throw error
            }
            locked { $0.written += 1 }
        }
        try writer.close()
    }

    private func guideAll() async {
        while true {
            switch await mailbox.next() {
            case .frame(let frame, let index, let submitted):
                guide.guide(frame, index: index)
                let latency = clock.now - submitted
                locked {
                    $0.guided += 1
                    $0.addLatency(Double(latency.components.seconds) + Double(latency.components.attoseconds) * 1e-18)
                }
            case .pause:
                guide.pause()
            case .end:
                guide.finish()
                return
            }
        }
    }
}

/// What happened to the frames of a live scan.
public struct LiveScanStatistics: Sendable, Codable, Equatable {
    /// Frames the camera delivered while recording.
    public var submitted = 0
    /// Frames written to the scan file.
    public var written = 0
    /// Frames the guide worked on.
    public var guided = 0
    /// Frames the guide skipped because a newer one had arrived.
    public var skippedByGuide = 0
    /// Frames dropped because scanning was paused.
    public var droppedWhilePaused = 0
    /// Frames not written because the writer lagged behind by its whole backlog (the guide
    /// still saw them).
    public var droppedForWriter = 0
    /// Most frames waiting to be written at once.
    public var writerBacklogMax = 0
    /// Seconds from a frame's arrival to the end of its guidance, for each guided frame.
    public var guideLatencies: [Double] = []

    mutating func addLatency(_ seconds: Double) { guideLatencies.append(seconds) }

    /// The latency below which `fraction` of the guided frames lie, seconds.
    public func latency(quantile fraction: Double) -> Double? {
        Statistics.nearestRankQuantile(guideLatencies, fraction)
    }
}
