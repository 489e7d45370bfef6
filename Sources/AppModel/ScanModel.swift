import AppSupport
import Feedback
import Foundation
import Markers
import Observation
import ScanLibrary

/// The scan screen's state.
public enum ScanPhase: Sendable, Equatable {
    /// Camera preview, not recording yet.
    case ready
    /// Record was pressed: the camera and the file are being set up, and the button waits so
    /// that a second tap cannot start a second recording.
    case starting
    case recording
    /// Recording paused: feedback and camera off.
    case paused
    /// The file is being closed.
    case stopping
    /// Saved: the summary shows (and is spoken) until the therapist continues.
    case saved
}

/// An alert on the scan screen.
public enum ScanAlert: Sendable, Equatable {
    /// Less than 3 GB free when the screen opened.
    case lowStorage
    /// The sensor is too hot: pause.
    case overheating
    /// Recording failed, with the reason.
    case failed(String)
    /// The camera stopped delivering pictures during the recording, with the reason.
    case cameraStopped(String)
}

/// The scan screen: record, pause, resume, stop; alerts; then on to the patient data.
@MainActor @Observable
public final class ScanModel {
    /// Where the screen is.
    public private(set) var phase = ScanPhase.ready
    /// The alert on screen, if any.
    public private(set) var alert: ScanAlert?
    /// The latest progress.
    public private(set) var progress = ScanProgressReport(percent: 0, colour: .red)
    /// The session being recorded, once recording started.
    public private(set) var session: ScanSession?
    /// Called when the therapist continues after "saved", with the session: the patient data
    /// screen opens.
    @ObservationIgnored public var onSaved: (ScanSession) -> Void = { _ in }
    /// Called when the screen closes without a scan.
    @ObservationIgnored public var onClose: () -> Void = {}

    @ObservationIgnored private let library: ScanLibrary
    @ObservationIgnored private let recorder: any ScanRecorder
    @ObservationIgnored private let storage: any StorageMonitor
    @ObservationIgnored private let settings: FeedbackSettings
    @ObservationIgnored private let layout: CapLayout
    @ObservationIgnored private let clock: any AppClock
    @ObservationIgnored private let strings: Strings
    @ObservationIgnored private let player: (any FeedbackPlayer)?
    @ObservationIgnored private let screen: any ScreenDimmer

    /// A scan screen recording into `library` a cap laid out as `layout`.
    public init(
        library: ScanLibrary, recorder: any ScanRecorder, storage: any StorageMonitor, thermal: any ThermalMonitor,
        settings: FeedbackSettings, layout: CapLayout = .standard, clock: any AppClock, strings: Strings,
        player: (any FeedbackPlayer)? = nil, screen: any ScreenDimmer = NoScreenDimmer()
    ) {
        self.player = player
        self.screen = screen
        self.library = library
        self.recorder = recorder
        self.storage = storage
        self.settings = settings
        self.layout = layout
        self.clock = clock
        self.strings = strings
        if (try? storage.currentStorage())?.isLow ?? true {
            alert = .lowStorage
        } else if !thermal.currentThermalState().allowsScanning {
            alert = .overheating
        }
    }

    /// The close button is disabled from the start of recording on.
    public var canClose: Bool { phase == .ready }

    /// The main button's label: record, pause or resume.
    public var primaryButtonTitle: String {
        switch phase {
        case .ready, .starting: strings(.scanRecord)
        case .recording: strings(.scanPause)
        case .paused: strings(.scanResume)
        case .stopping: strings(.scanSaving)
        case .saved: strings(.scanContinue)
        }
    }

    /// Whether the main button can be pressed: not while recording starts or the file closes.
    public var canPressPrimary: Bool { phase != .starting && phase != .stopping }

    /// Whether stop is offered (while recording or paused).
    public var canStop: Bool { phase == .recording || phase == .paused }

    /// A line under the progress while frames are not being saved because the phone lags
    /// behind (hot, or its storage slow); nil when every frame is saved.
    public var framesNotWrittenNote: String? {
        progress.framesNotWritten > 0 ? strings(.scanFramesNotWritten, String(progress.framesNotWritten)) : nil
    }

    /// "Saved" while the confirmation shows.
    public var confirmation: String? { phase == .saved ? strings(.scanSaved) : nil }

    /// The alert's title and message.
    public var alertText: (title: String, message: String)? {
        switch alert {
        case nil: nil
        case .lowStorage: (strings(.scanLowStorageTitle), strings(.scanLowStorageMessage))
        case .overheating: (strings(.scanHotTitle), strings(.scanHotMessage))
        case .failed(let why): (strings(.scanFailedTitle), strings(.scanFailedMessage, why))
        case .cameraStopped(let why): (strings(.scanCameraStoppedTitle), strings(.scanCameraStoppedMessage, why))
        }
    }

    /// The latest frame's cloud as the camera saw it, in a view of `width` x `height` points;
    /// nil before the first frame.
    public func projection(width: Double, height: Double) -> CloudProjection? {
        progress.cloud.map { CloudProjection(cloud: $0, view: CloudViewTransform(), width: width, height: height) }
    }

    /// The marker colours' meaning with their counts in the latest frame.
    public var legend: [CloudLegendEntry] { strings.cloudLegend(progress.cloud) }

    /// Dismisses the alert.
    public func dismissAlert() { alert = nil }

    /// The main button: starts recording, pauses, resumes, or continues after "saved".
    public func primaryAction() async {
        switch phase {
        case .ready: await record()
        case .recording: await pause()
        case .paused: await resume()
        case .saved: continueAfterSaved()
        case .starting, .stopping: break
        }
    }

    /// Whether the camera and feedback run before recording (nothing is written).
    public private(set) var previewing = false

    /// Starts the camera and the feedback before recording, writing nothing, so the therapist
    /// finds the head by vibration and speech first. A camera that cannot start is shown
    /// here already; Record tries again.
    public func startPreview() async {
        guard phase == .ready, !previewing else { return }
        previewing = true
        do {
            try await recorder.preview(
                settings: settings, layout: layout,
                progress: { [weak self] in self?.progress = $0 },
                problem: { [weak self] problem in Task { await self?.captureProblem(problem) } })
        } catch {
            previewing = false
            alert = .failed((error as? CameraFailure).map(strings.message) ?? error.localizedDescription)
        }
    }

    /// Ends the preview when the screen closes without a recording.
    public func stopPreview() async {
        guard previewing, phase == .ready else { return }
        previewing = false
        await recorder.stopPreview()
    }

    /// Creates the session and starts recording into it.
    public func record() async {
        guard phase == .ready else { return }
        phase = .starting
        let created: ScanSession
        do {
            created = try library.createSession(date: clock.now())
        } catch {
            phase = .ready
            alert = .failed(strings.message(error))
            return
        }
        do {
            try await recorder.start(
                writingTo: created.scanURL, settings: settings, layout: layout,
                progress: { [weak self] in self?.progress = $0 },
                problem: { [weak self] problem in Task { await self?.captureProblem(problem) } })
            session = created
            previewing = false
            phase = .recording
            screen.dim()
        } catch {
            try? library.delete([created])  // nothing was recorded; leave no empty session
            phase = .ready
            alert = .failed((error as? CameraFailure).map(strings.message) ?? error.localizedDescription)
        }
    }

    /// Pauses: feedback and camera stop so the sensor can cool.
    public func pause() async {
        guard phase == .recording else { return }
        await recorder.pause()
        phase = .paused
        screen.restore()
    }

    /// Resumes a paused recording.
    public func resume() async {
        guard phase == .paused else { return }
        do {
            try await recorder.resume()
            phase = .recording
            screen.dim()
        } catch {
            alert = .failed(error.localizedDescription)
        }
    }

    /// Stops and saves; shows and speaks "saved" with the summary, which stays until the
    /// therapist continues (the operator may be holding the infant).
    public func stop() async {
        guard canStop, session != nil else { return }
        phase = .stopping
        screen.restore()
        do {
            try await recorder.stop()
        } catch {
            phase = .paused
            alert = .failed(error.localizedDescription)
            return
        }
        phase = .saved
        player?.speak(([strings(.scanSaved)] + summary).joined(separator: " "), language: strings.language)
    }

    /// Leaves the saved scan's summary for the patient data screen.
    public func continueAfterSaved() {
        guard phase == .saved, let session else { return }
        onSaved(session)
    }

    /// The recorder reports a problem: it is shown and spoken at once (silence would mean
    /// "position fine"). A file that cannot be written ends the recording; the scan is kept up
    /// to its last complete frame.
    public func captureProblem(_ problem: CaptureProblem) async {
        guard phase == .recording || phase == .paused || (previewing && phase == .ready) else { return }
        switch problem {
        case .cameraStopped(let reason):
            alert = .cameraStopped(reason ?? strings(.scanCameraNoFrames))
            recorder.alarm()
            say(strings(.scanCameraStoppedSpoken))
        case .cameraBack:
            if case .cameraStopped = alert { alert = nil }
            say(strings(.scanCameraBackSpoken))
        case .sensorTooWarm:
            alert = .overheating
            say(strings(.scanHotSpoken))
        case .writeFailed(let why):
            recorder.alarm()
            say(strings(.scanWriteFailedSpoken))
            await stop()
            alert = .failed(why)
        }
    }

    private func say(_ text: String) { player?.speak(text, language: strings.language) }

    /// The system reported a new thermal state: alert while recording when it is too hot.
    public func thermalStateChanged(_ state: ThermalState) {
        if !state.allowsScanning, phase == .recording || phase == .ready || phase == .starting { alert = .overheating }
    }

    /// What the scan captured, shown after it stopped: regions, ears and face, missing markers.
    public var summary: [String] {
        guard phase == .saved || phase == .stopping else { return [] }
        let p = progress
        var lines: [String] = []
        if !p.completed { lines.append(strings(.summaryNotDone)) }
        let missingRegions = HeadRegion.allCases.filter { !p.regionsCovered.contains($0) }
        lines.append(strings(.summaryRegions, p.regionsCovered.map(strings.regionName).joined(separator: ", ")))
        if !missingRegions.isEmpty { lines.append(strings(.summaryRegionsMissing, missingRegions.map(strings.regionName).joined(separator: ", "))) }
        let missingFeatures = HeadFeature.allCases.filter { !p.featuresSeen.contains($0) }
        lines.append(
            missingFeatures.isEmpty
                ? strings(.summaryFeatures) : strings(.summaryFeaturesMissing, missingFeatures.map(strings.featureName).joined(separator: ", ")))
        if p.withoutMarkers {
            lines.append(strings(.summarySurfaceSeen, String(p.percent)))
            return lines
        }
        lines.append(
            p.missingMarkers.isEmpty
                ? strings(.summaryAllMarkers)
                : strings(.summaryMarkersMissing, String(p.missingMarkers.count), p.missingMarkers.map(String.init).joined(separator: ", ")))
        return lines
    }

    /// Closes the screen, when allowed.
    public func close() {
        guard canClose else { return }
        if previewing {
            previewing = false
            let recorder = self.recorder
            Task { await recorder.stopPreview() }
        }
        onClose()
    }
}
