import AppModel
import Feedback
import Foundation
import Markers

/// A recorder without a camera: it writes a small placeholder file, logs its calls, and
/// reports whatever progress the test or preview sends.
@MainActor
public final class ScriptedRecorder: ScanRecorder {
    /// "preview", "stopPreview", "start", "pause", "resume", "stop", "alarm", in order.
    public private(set) var calls: [String] = []
    /// Thrown by `start` when set (the disk is full, the camera is gone).
    public var startError: (any Error)?
    /// The settings and the cap of the last start.
    public private(set) var settings: FeedbackSettings?
    public private(set) var layout: CapLayout?
    /// Reports sent to the screen on start, in order.
    public var reportsOnStart: [ScanProgressReport]
    private var progress: (@MainActor (ScanProgressReport) -> Void)?
    private var problem: (@MainActor (CaptureProblem) -> Void)?
    /// When set, `start` waits until `releaseStart()`, as a camera takes its time to come up.
    public var holdsStart = false
    private var heldStarts: [CheckedContinuation<Void, Never>] = []

    /// A recorder that sends `reportsOnStart` as soon as it starts.
    public init(reportsOnStart: [ScanProgressReport] = []) { self.reportsOnStart = reportsOnStart }

    public func start(
        writingTo url: URL, settings: FeedbackSettings, layout: CapLayout, progress: @escaping @MainActor (ScanProgressReport) -> Void,
        problem: @escaping @MainActor (CaptureProblem) -> Void
    ) async throws {
        self.problem = problem
        calls.append("start")
        if holdsStart { await withCheckedContinuation { heldStarts.append($0) } }
        if let startError { throw startError }
        try Data("scan".utf8).write(to: url)
        self.settings = settings
        self.layout = layout
        self.progress = progress
        for report in reportsOnStart { progress(report) }
    }

    public func preview(
        settings: FeedbackSettings, layout: CapLayout, progress: @escaping @MainActor (ScanProgressReport) -> Void,
        problem: @escaping @MainActor (CaptureProblem) -> Void
    ) async throws {
        calls.append("preview")
        if let startError { throw startError }
        self.progress = progress
        self.problem = problem
    }

    public func stopPreview() async { calls.append("stopPreview") }

    /// Lets every held `start` go on.
    public func releaseStart() {
        for held in heldStarts { held.resume() }
        heldStarts = []
    }

    /// Reports a capture problem, as the camera or the writer would.
    public func report(_ problem: CaptureProblem) { self.problem?(problem) }

    /// Hands the screen a progress report, as the guide does for every frame.
    public func send(_ report: ScanProgressReport) { progress?(report) }

    public func pause() async { calls.append("pause") }
    public func resume() async throws { calls.append("resume") }
    public func stop() async throws { calls.append("stop") }
    public func alarm() { calls.append("alarm") }
}
