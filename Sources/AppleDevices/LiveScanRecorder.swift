#if os(iOS)
import AVFoundation
import AppModel
import Feedback
import Foundation
import Markers
import Recording
import Scanning
import UIKit

/// Records a scan on the phone: TrueDepth frames through the shared live pipeline
/// (`LiveScan`: every frame written, the newest guided) with vibration and speech.
///
/// The camera's callback only submits frames; writing and guidance run in a detached task,
/// off the main actor. Progress comes back to the main actor for the scan screen.
@MainActor
public final class LiveScanRecorder: ScanRecorder {
    private let camera = TrueDepthCamera()
    private let haptics: HapticFeedback
    private let speech: SpeechOutput
    private var live: LiveScan?
    private var running: Task<LiveScanStatistics, any Error>?
    private let watchdog = WatchdogBox()
    private var watching: Task<Void, Never>?
    private var observers: [NSObjectProtocol] = []
    /// The writer failed and said so: Stop must not report it again.
    private var writerFailed = false
    /// The guide running before Record, writing nothing.
    private var previewScan: LiveScan?

    /// Statistics of the last finished scan (frames written, skipped by the guide, …).
    public private(set) var lastStatistics: LiveScanStatistics?

    /// A recorder using the phone's vibration and voice.
    public init(haptics: HapticFeedback = HapticFeedback(), speech: SpeechOutput = SpeechOutput()) {
        self.haptics = haptics
        self.speech = speech
    }

    public func start(
        writingTo url: URL, settings: FeedbackSettings, layout: CapLayout, progress: @escaping @MainActor (ScanProgressReport) -> Void,
        problem: @escaping @MainActor (CaptureProblem) -> Void
    ) async throws {
        do {
            try await startRecording(writingTo: url, settings: settings, layout: layout, progress: progress, problem: problem)
        } catch let error as CameraError {
            // The scan screen says it in the app's language.
            throw error.failure
        }
    }

    public func preview(
        settings: FeedbackSettings, layout: CapLayout, progress: @escaping @MainActor (ScanProgressReport) -> Void,
        problem: @escaping @MainActor (CaptureProblem) -> Void
    ) async throws {
        do {
            guard await CameraPermission.request() == .authorized else { throw CameraError.notAuthorized }
            speech.beginScan(settings: settings)
            let camera = self.camera
            try await Self.offMain { try camera.start() }
            let guide = try FrameGuide(layout: layout, settings: settings, sinks: sinks(progress))
            let scan = LiveScan(guide: guide, writer: DiscardingWriter())
            previewScan = scan
            Task.detached(priority: .userInitiated) { _ = try? await scan.run() }
            camera.onFrame = { scan.submit($0) }
            let pressure = PressureWatchBox()
            camera.onSystemPressure = { level in
                if pressure.update(level) { Task { @MainActor in problem(.sensorTooWarm) } }
            }
        } catch let error as CameraError {
            speech.stopScan()
            throw error.failure
        }
    }

    public func stopPreview() async {
        endPreview()
        speech.stopScan()
        let camera = self.camera
        try? await Self.offMain { camera.stop() }
    }

    /// The preview's guide stops; the camera keeps running for the recording.
    private func endPreview() {
        camera.onFrame = nil
        camera.onSystemPressure = nil
        previewScan?.end()
        previewScan = nil
        haptics.stop()
    }

    private func startRecording(
        writingTo url: URL, settings: FeedbackSettings, layout: CapLayout, progress: @escaping @MainActor (ScanProgressReport) -> Void,
        problem: @escaping @MainActor (CaptureProblem) -> Void
    ) async throws {
        guard await CameraPermission.request() == .authorized else { throw CameraError.notAuthorized }
        endPreview()
        speech.beginScan(settings: settings)
        UIApplication.shared.isIdleTimerDisabled = true
        let camera = self.camera
        camera.resetClock()
        try await Self.offMain { try camera.start() }
        // The header needs the camera's intrinsics: they come with the first frame.
        guard let first = try await Self.firstFrame(from: camera, timeout: 3) else {
            camera.stop()
            speech.stopScan()
            UIApplication.shared.isIdleTimerDisabled = false
            throw CameraError.noFrames
        }
        do {
            try begin(with: first, writingTo: url, settings: settings, layout: layout, progress: progress, problem: problem)
        } catch {
            // Nothing is recorded: the camera, the voice and the idle timer go back to normal.
            camera.stop()
            speech.stopScan()
            UIApplication.shared.isIdleTimerDisabled = false
            throw error
        }
    }

    private func begin(
        with first: RGBDFrame, writingTo url: URL, settings: FeedbackSettings, layout: CapLayout,
        progress: @escaping @MainActor (ScanProgressReport) -> Void, problem: @escaping @MainActor (CaptureProblem) -> Void
    ) throws {
        let camera = self.camera
        // The header keeps the whole layout, so the scan replays and processes with this cap.
        var header = ScanHeader(device: UIDevice.current.model, firstFrame: first, layout: layout, settings: settings)
        header.lensDistortion = camera.lensDistortion
        header.depthAccuracy = camera.depthAccuracy
        let writer = try ScanWriter(url: url, header: header)
        let guide = try FrameGuide(layout: layout, settings: settings, sinks: sinks(progress))
        let live = LiveScan(guide: guide, writer: writer)
        live.onWriterFailure = { [weak self] error in
            let message = error.localizedDescription
            Task { @MainActor in
                self?.writerFailed = true
                problem(.writeFailed(message))
            }
        }
        self.live = live
        writerFailed = false
        running = Task.detached(priority: .userInitiated) { try await live.run() }
        live.submit(first)
        let watchdog = self.watchdog
        watchdog.start()
        camera.onFrame = { frame in
            live.submit(frame)
            if watchdog.frameArrived() { Task { @MainActor in problem(.cameraBack) } }
        }
        let pressure = PressureWatchBox()
        camera.onSystemPressure = { level in
            if pressure.update(level) { Task { @MainActor in problem(.sensorTooWarm) } }
        }
        startWatching(problem)
    }

    /// Vibration, speech and the screen's progress (point cloud included, made on the guide's
    /// task, off the main actor).
    private func sinks(_ progress: @escaping @MainActor (ScanProgressReport) -> Void) -> [any PipelineSink] {
        [
            FeedbackEventSink(HapticSink(haptics: haptics)),
            FeedbackEventSink(LiveSpeechSink(output: speech)),
            ScanProgressSink { report in
                Task { @MainActor [weak self] in
                    var report = report
                    report.framesNotWritten = self?.live?.statistics.droppedForWriter ?? 0
                    progress(report)
                }
            },
        ]
    }

    /// Checks four times a second that frames still come, and listens for the capture
    /// session's interruptions and errors: each is reported at once.
    private func startWatching(_ problem: @escaping @MainActor (CaptureProblem) -> Void) {
        let watchdog = self.watchdog
        watching = Task { @MainActor in
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(250))
                if watchdog.check() { problem(.cameraStopped(reason: nil)) }
            }
        }
        let center = NotificationCenter.default
        observers = [
            center.addObserver(forName: .AVCaptureSessionWasInterrupted, object: nil, queue: .main) { _ in
                MainActor.assumeIsolated { problem(.cameraStopped(reason: nil)) }
            },
            center.addObserver(forName: .AVCaptureSessionRuntimeError, object: nil, queue: .main) { note in
                let reason = (note.userInfo?[AVCaptureSessionErrorKey] as? NSError)?.localizedDescription
                MainActor.assumeIsolated { problem(.cameraStopped(reason: reason)) }
            },
        ]
    }

    private func stopWatching() {
        watching?.cancel()
        watching = nil
        for observer in observers { NotificationCenter.default.removeObserver(observer) }
        observers = []
        watchdog.stop()
    }

    public func alarm() { haptics.alarm() }

    public func pause() async {
        watchdog.stop()
        live?.pause()
        haptics.stop()
        speech.pauseScan()
        let camera = self.camera
        try? await Self.offMain { camera.stop() }
    }

    public func resume() async throws {
        let camera = self.camera
        try await Self.offMain { try camera.start() }
        live?.resume()
        speech.resumeScan()
        watchdog.start()
    }

    public func stop() async throws {
        stopWatching()
        let camera = self.camera
        camera.onFrame = nil
        try? await Self.offMain { camera.stop() }
        live?.end()
        haptics.stop()
        speech.stopScan()
        UIApplication.shared.isIdleTimerDisabled = false
        defer {
            live = nil
            running = nil
        }
        if let running {
            if writerFailed {
                // Reported when it happened; the file keeps every complete frame.
                lastStatistics = try? await running.value
            } else {
                lastStatistics = try await running.value
            }
        }
    }

    /// Runs blocking camera work on a background queue.
    nonisolated private static func offMain(_ work: @escaping @Sendable () throws -> Void) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            DispatchQueue.global(qos: .userInitiated).async {
                do {
                    try work()
                    continuation.resume()
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    /// The camera's first frame, or nil when none comes within `timeout` seconds.
    nonisolated private static func firstFrame(from camera: TrueDepthCamera, timeout: Double) async throws -> RGBDFrame? {
        let watchdog = Task {
            try await Task.sleep(for: .seconds(timeout))
            camera.stop()  // ends the wait with nil
        }
        defer { watchdog.cancel() }
        return try await camera.nextFrame()
    }
}

extension CameraError {
    /// The same failure for the scan screen.
    var failure: CameraFailure {
        switch self {
        case .notAuthorized: .notAuthorized
        case .noTrueDepthCamera: .noTrueDepthCamera
        case .noDepthFormat: .noDepthFormat
        case .configurationFailed(let why): .setupFailed(why)
        case .noFrames: .noFrames
        }
    }
}

/// The capture watchdog behind a lock: frames arrive on the camera's queue, checks come from
/// the main actor. Times from the system's uptime.
final class WatchdogBox: @unchecked Sendable {
    private let lock = NSLock()
    private var watchdog = CaptureWatchdog()

    private var now: Double { ProcessInfo.processInfo.systemUptime }

    func start() { lock.withLock { watchdog.start(at: now) } }
    func stop() { lock.withLock { watchdog.stop() } }
    func frameArrived() -> Bool { lock.withLock { watchdog.frameArrived(at: now) } }
    func check() -> Bool { lock.withLock { watchdog.check(at: now) } }
}

/// The preview's writer: the frames go nowhere.
final class DiscardingWriter: ScanFrameWriter {
    func append(_ frame: RGBDFrame) throws {}
    func close() throws {}
}

/// The system pressure decision behind a lock: the camera reports on a system queue.
final class PressureWatchBox: @unchecked Sendable {
    private let lock = NSLock()
    private var watch = SystemPressureWatch()

    func update(_ level: SystemPressureLevel) -> Bool { lock.withLock { watch.update(level) } }
}

/// Vibration and speech for the demonstrations on the home and instructions screens.
@MainActor
public final class DeviceFeedbackPlayer: FeedbackPlayer {
    private let haptics: HapticFeedback
    private let speech: SpeechOutput

    /// A player using the phone's vibration and voice.
    public init(haptics: HapticFeedback = HapticFeedback(), speech: SpeechOutput = SpeechOutput()) {
        self.haptics = haptics
        self.speech = speech
    }

    public func playVibration() { haptics.pulse(seconds: 1) }

    public func speak(_ text: String, language: Language) {
        speech.activate()
        speech.speak(text, language: language)
    }
}
#endif
