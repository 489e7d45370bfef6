import Feedback
import Markers
import Recording

/// The one path every frame takes: source → marker detection → scan guide → sinks, and the
/// scan file when one is being written. The app's live scan and replay, the command line's
/// replay, the demo and the benchmarks all run it; only source and sinks differ.
///
/// This runs each frame to the end before taking the next, which is right for replays and
/// simulations; `LiveScan` runs the same stages for a camera that must never wait.
public final class ScanPipeline {
    /// Detection, guide and sinks.
    public let guide: FrameGuide
    /// The scan file, when recording.
    public let writer: ScanWriter?
    /// Frames taken from the source (not counting damaged ones).
    public private(set) var framesRead = 0
    /// Frames of a replay that could not be read, with the reason.
    public private(set) var damaged: [ScanFileError] = []
    /// Whether frames are currently dropped instead of guided and written.
    public private(set) var isPaused = false

    /// A pipeline guiding with `guide` and, when given, writing every frame to `writer`.
    public init(guide: FrameGuide, writer: ScanWriter? = nil) {
        self.guide = guide
        self.writer = writer
    }

    /// Writes and guides one frame; nil while paused (the frame is dropped, as a paused camera
    /// delivers none).
    @discardableResult
    public func process(_ frame: RGBDFrame, index: Int? = nil) throws -> GuidedFrame? {
        guard !isPaused else { return nil }
        let number = index ?? framesRead
        framesRead += 1
        try writer?.append(frame)
        return guide.guide(frame, index: number)
    }

    /// Plays `source` to its end (or until `shouldStop` says so after a frame), reporting
    /// each guided frame to `progress`. Damaged frames of a replay are skipped and kept in
    /// `damaged`.
    public func run(
        _ source: some FrameSource, shouldStop: (GuidedFrame) -> Bool = { _ in false },
        progress: (GuidedFrame) -> Void = { _ in }
    ) async throws {
        let replay = source as? ReplaySource
        while let frame = try await source.nextFrame() {
            // A replay's frame keeps its number in the file, damaged frames before it included.
            var index: Int?
            if let replay { index = await replay.position - 1 }
            guard let guided = try process(frame, index: index) else { continue }
            progress(guided)
            if shouldStop(guided) { break }
        }
        if let replay { damaged = await replay.skipped }
    }

    /// Stops feedback; frames given while paused are dropped.
    public func pause() {
        isPaused = true
        guide.pause()
    }

    /// Takes frames again; the scan file continues where it stopped.
    public func resume() { isPaused = false }

    /// Ends the scan: the sinks finish and the scan file is closed.
    public func finish() throws {
        guide.finish()
        try writer?.close()
    }
}
