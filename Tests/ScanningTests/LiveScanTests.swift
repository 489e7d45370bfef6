import Feedback
import Foundation
import Markers
import Recording
import Scanning
import Testing

/// A sink that holds the guide up until the test lets it go, so the camera gets ahead.
final class Gate: PipelineSink, @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let entered = DispatchSemaphore(value: 0)
    private var first = true

    func receive(_ frame: GuidedFrame, guide: ScanGuide) {
        guard first else { return }
        first = false
        entered.signal()
        semaphore.wait()
    }

    func waitUntilGuiding() async {
        await withCheckedContinuation { c in
            DispatchQueue.global().async {
                self.entered.wait(); c.resume()
            }
        }
    }

    func open() { semaphore.signal() }
}

/// A writer that stops at its first frame until the test lets it go: the disk lags.
final class HeldWriter: ScanFrameWriter, @unchecked Sendable {
    let inner: ScanWriter
    private let entered = DispatchSemaphore(value: 0)
    private let release = DispatchSemaphore(value: 0)
    private var first = true

    init(_ inner: ScanWriter) { self.inner = inner }

    func append(_ frame: RGBDFrame) throws {
        if first {
            first = false
            entered.signal()
            release.wait()
        }
        try inner.append(frame)
    }

    func close() throws { try inner.close() }

    func waitUntilWriting() async {
        await withCheckedContinuation { c in
            DispatchQueue.global().async {
                self.entered.wait(); c.resume()
            }
        }
    }

    func open() { release.signal() }
}

/// A writer whose disk fills up at a given frame.
final class FillingDiskWriter: ScanFrameWriter, @unchecked Sendable {
    let inner: ScanWriter
    private let failAt: Int
    private var count = 0

    init(_ inner: ScanWriter, failAt: Int) {
        self.inner = inner
        self.failAt = failAt
    }

    func append(_ frame: RGBDFrame) throws {
        defer { count += 1 }
        if count >= failAt { throw CocoaError(.fileWriteOutOfSpace) }
        try inner.append(frame)
    }

    func close() throws { try inner.close() }
}

/// Counts the failures it hears of.
final class FailureLog: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [String] = []
    func add(_ error: any Error) { lock.withLock { errors.append(String(describing: error)) } }
    var all: [String] { lock.withLock { errors } }
}

/// Serialized: two of these tests hold a pipeline thread on purpose, and on a two-core
/// machine two held at once would leave none to run the rest.
@Suite(.serialized)
struct LiveScanTests {
    /// Memory stays bounded when the writer lags: beyond the backlog, frames are counted as not
    /// written, the guide still sees the newest, and the file holds every frame it was given.
    @Test func aLaggingWriterKeepsABoundedBacklogAndCountsWhatItDrops() async throws {
        let recordings = try Recordings()
        defer { recordings.remove() }
        let tape = Tape()
        let writer = HeldWriter(try recordings.writer("lagging.hscan"))
        let live = LiveScan(
            guide: try FrameGuide(layout: .standard, settings: FeedbackSettings(), sinks: [tape]), writer: writer, writerBacklogLimit: 3)
        let running = Task { try await live.run() }
        live.submit(recordings.frame(0))
        await writer.waitUntilWriting()
        for index in 1..<10 { live.submit(recordings.frame(index)) }
        // Three waiting and the one being written.
        #expect(live.statistics.writerBacklogMax == 4)
        writer.open()
        live.end()
        let statistics = try await running.value
        #expect(statistics.submitted == 10)
        #expect(statistics.written == 4 && statistics.droppedForWriter == 6)
        #expect(tape.indices.last == 9)
        let reader = try ScanReader(url: writer.inner.url)
        #expect(reader.frameCount == 4)
        #expect(try reader.frame(at: 3).timestamp == recordings.frame(3).timestamp)
    }

    @Test func aSlowGuideSkipsToTheNewestFrameWhileEveryFrameIsWritten() async throws {
        let recordings = try Recordings()
        defer { recordings.remove() }
        let tape = Tape()
        let gate = Gate()
        let writer = try recordings.writer("live.hscan")
        let live = LiveScan(guide: try FrameGuide(layout: .standard, settings: FeedbackSettings(), sinks: [gate, tape]), writer: writer)
        let running = Task { try await live.run() }
        live.submit(recordings.frame(0))
        await gate.waitUntilGuiding()
        // The guide is busy with frame 0: frames 1...9 arrive; only the newest is kept for it.
        for index in 1..<10 { live.submit(recordings.frame(index)) }
        gate.open()
        live.end()
        let statistics = try await running.value
        #expect(statistics.submitted == 10)
        #expect(statistics.written == 10)
        #expect(tape.indices == [0, 9])
        #expect(statistics.skippedByGuide == 8)
        #expect(statistics.guided == 2)
        #expect(try ScanReader(url: writer.url).frameCount == 10)
    }

    @Test func pausedFramesAreDroppedAndTheFileContinues() async throws {
        let recordings = try Recordings()
        defer { recordings.remove() }
        let tape = Tape()
        let writer = try recordings.writer("live-paused.hscan")
        let live = LiveScan(guide: try FrameGuide(layout: .standard, settings: FeedbackSettings(), sinks: [tape]), writer: writer)
        let running = Task { try await live.run() }
        for index in 0..<3 { live.submit(recordings.frame(index)) }
        live.pause()
        for index in 3..<5 { live.submit(recordings.frame(index)) }
        live.resume()
        for index in 5..<7 { live.submit(recordings.frame(index)) }
        live.end()
        let statistics = try await running.value
        #expect(statistics.written == 5)
        #expect(statistics.droppedWhilePaused == 2)
        #expect(tape.pauses == 1)
        #expect(tape.finished)
        let reader = try ScanReader(url: writer.url)
        #expect(reader.frameCount == 5)
        #expect(try reader.frame(at: 3).timestamp == recordings.frame(5).timestamp)
    }

    /// A full disk is heard at once, not at Stop, and the file keeps every complete frame.
    @Test func aFullDiskIsReportedAtOnceAndTheScanKeepsItsCompleteFrames() async throws {
        let recordings = try Recordings()
        defer { recordings.remove() }
        let writer = FillingDiskWriter(try recordings.writer("full.hscan"), failAt: 2)
        let live = LiveScan(guide: try FrameGuide(layout: .standard, settings: FeedbackSettings(), sinks: [Tape()]), writer: writer)
        let failures = FailureLog()
        live.onWriterFailure = { failures.add($0) }
        let running = Task { try await live.run() }
        for index in 0..<5 { live.submit(recordings.frame(index)) }
        await #expect(throws: CocoaError.self) { try await running.value }
        #expect(failures.all.count == 1)
        let reader = try ScanReader(url: writer.inner.url)
        #expect(reader.frameCount == 2)
        #expect(try reader.verify().isEmpty)
    }
}
