import AppSupport
import Foundation
import KneeReport
import Observation
import RangeOfMotion

/// The knee measurement: welcome with earlier results, instructions, side picker,
/// processing with progress and a retry on failure, result with the most bent and the
/// straightest frame, history, and the PDF to share. Views only bind to this.
@MainActor @Observable
public final class KneeMeasurementModel {
    public private(set) var screen = KneeScreen.welcome
    /// The knee to measure.
    public private(set) var side = BodySide.left
    /// Earlier measurements, newest first.
    public private(set) var past: [KneePastResult] = []
    /// Files among the earlier measurements that could not be read.
    public private(set) var pastProblems: [String] = []
    /// Progress while processing.
    public private(set) var progress: KneeProgress?
    /// Why the last attempt failed; the alert offers `retry()`.
    public private(set) var failure: KneeFailure?
    /// The measurement on the result screen.
    public private(set) var result: KneeResult?

    @ObservationIgnored public let patientID: String
    @ObservationIgnored private let store: RangeOfMotionStore
    @ObservationIgnored private let source: any PoseSource
    @ObservationIgnored private let clock: any AppClock
    @ObservationIgnored private let analyzer: RangeOfMotionAnalyzer
    @ObservationIgnored private let strings: Strings
    @ObservationIgnored private var video: URL?
    @ObservationIgnored private var stored: [String: RangeOfMotionRecord] = [:]

    /// The flow for one patient, showing their earlier results.
    public init(
        patientID: String, store: RangeOfMotionStore, source: any PoseSource, clock: any AppClock, strings: Strings,
        settings: RangeOfMotionSettings = RangeOfMotionSettings()
    ) throws(RangeOfMotionError) {
        try RangeOfMotionStore.validate(patientID: patientID)
        self.patientID = patientID
        self.store = store
        self.source = source
        self.clock = clock
        self.strings = strings
        analyzer = try RangeOfMotionAnalyzer(settings: settings)
        reloadPast()
    }

    /// The instructions, one step per line.
    public var instructionSteps: [String] {
        [strings(.kneeStepPhone), strings(.kneeStepSide), strings(.kneeStepMove), strings(.kneeStepHold)]
    }

    /// The side picker's choices in display order.
    public var sideChoices: [(side: BodySide, title: String)] { BodySide.allCases.map { ($0, strings.sideName($0)) } }

    /// "Frame 12 of 60" while processing.
    public var progressText: String? { progress.map { strings(.kneeProcessingProgress, String($0.done), String($0.total)) } }

    /// Welcome → instructions.
    public func start() { screen = .instructions }

    /// Instructions → side picker.
    public func showSidePicker() { screen = .sidePicker }

    /// Chooses the knee to measure.
    public func choose(_ side: BodySide) { self.side = side }

    /// Measures `video` (recorded or picked): processing, then the result or a failure.
    public func analyse(video: URL) async {
        self.video = video
        await run()
    }

    /// Runs the last video again after a failure.
    public func retry() async {
        guard video != nil else { return }
        await run()
    }

    /// Leaves a failed attempt for the side picker, to choose another video.
    public func cancel() {
        failure = nil
        progress = nil
        screen = .sidePicker
    }

    /// The history screen.
    public func showHistory() {
        reloadPast()
        screen = .history
    }

    /// Shows an earlier measurement on the result screen.
    public func open(_ entry: KneePastResult) {
        guard let record = stored[entry.id], let shown = strings.kneeResult(record.analysis, date: record.date) else { return }
        result = shown
        screen = .result
    }

    /// Back to the welcome screen, its list up to date.
    public func done() {
        failure = nil
        progress = nil
        reloadPast()
        screen = .welcome
    }

    /// One step back: instructions → welcome, side picker → instructions, result and
    /// history → welcome.
    public func back() {
        switch screen {
        case .welcome, .processing: return
        case .instructions: screen = .welcome
        case .sidePicker: screen = .instructions
        case .result, .history: done()
        }
    }

    /// Whether the failure alert offers to run the last video again.
    public var canRetry: Bool { video != nil }

    /// The picked video could not be handed over (the photo library refused it, say).
    public func videoUnavailable(_ reason: String) {
        fail(strings(.kneeFailedVideo, reason))
    }

    /// Closes the failure alert where it was shown; a failed processing goes back to the
    /// side picker.
    public func dismissFailure() {
        if screen == .processing { return cancel() }
        failure = nil
    }

    /// Writes the result's report into `directory` as
    /// `knee-<side>_<patient>_<yyyy-MM-dd>.pdf` for the share sheet; nil (with the failure
    /// shown) when it cannot be written.
    public func exportReport(to directory: URL) -> URL? {
        guard let result, let pdf = reportPDF() else { return nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd"
        let url = directory.appendingPathComponent(
            "knee-\(result.analysis.side.rawValue)_\(patientID)_\(formatter.string(from: result.date)).pdf")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(pdf).write(to: url, options: .atomic)
            return url
        } catch {
            fail(strings(.kneeReportFailed, error.localizedDescription))
            return nil
        }
    }

    /// The result's report as a PDF, to share.
    public func reportPDF() -> [UInt8]? {
        guard let result else { return nil }
        let earlier = stored.values.filter { $0.date < result.date }.sorted { $0.date < $1.date }
        let inputs = KneeReportInputs(analysis: result.analysis, patientID: patientID, date: result.date, source: "video", earlier: earlier)
        return KneeReportPDF.render(KneeReport(inputs))
    }

    private func run() async {
        guard let video else { return }
        failure = nil
        result = nil
        progress = KneeProgress(done: 0, total: 0)
        screen = .processing
        do {
            let poses = try await source.poses(of: video, framesPerSecond: analyzer.settings.framesPerSecond) { [weak self] done, total in
                self?.progress = KneeProgress(done: done, total: total)
            }
            let analysis = try analyzer.analyze(poses, side: side)
            guard analysis.accepted else { return fail(refused: analysis.quality) }
            let date = clock.now()
            do {
                try store.save(analysis, patientID: patientID, date: date, source: video.lastPathComponent)
            } catch {
                return fail(strings(.kneeFailedSave, error.localizedDescription))
            }
            result = strings.kneeResult(analysis, date: date)
            reloadPast()
            screen = .result
        } catch {
            fail(strings(.kneeFailedVideo, error.localizedDescription))
        }
    }

    private func fail(refused quality: QualitySummary) {
        let passed = String(Int((quality.passedShare * 100).rounded())), needed = String(Int((quality.requiredShare * 100).rounded()))
        fail(strings(.kneeFailedRefused, passed, needed))
    }

    private func fail(_ message: String) {
        failure = KneeFailure(title: strings(.kneeFailedTitle), message: message)
    }

    private func reloadPast() {
        do {
            let history = try store.history(patientID: patientID)
            stored = Dictionary(uniqueKeysWithValues: history.records.map { ($0.url.path, $0.record) })
            past = history.records.reversed().map { entry in
                KneePastResult(
                    id: entry.url.path, date: strings.shortDate(entry.record.date), side: strings.sideName(entry.record.analysis.side),
                    form: entry.record.neutralZero ?? strings(.kneeHistoryRefused))
            }
            pastProblems = history.problems.map(\.description)
        } catch {
            past = []
            pastProblems = [error.description]
        }
    }
}
