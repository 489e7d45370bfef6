import AppSupport
import Feedback
import Foundation
import GestureFeature
import HeadGestures
import KneeFeature
import Markers
import Observation
import RangeOfMotion
import ScanLibrary

/// What the models need from the outside world; tests pass fakes.
public struct AppDependencies {
    /// The scan library.
    public var library: ScanLibrary
    /// Where the settings persist.
    public var settings: SettingsStore
    /// Free storage.
    public var storage: any StorageMonitor
    /// Thermal state.
    public var thermal: any ThermalMonitor
    /// Time.
    public var clock: any AppClock
    /// Demo vibration and speech.
    public var player: any FeedbackPlayer
    /// A recorder for a new scan.
    public var makeRecorder: @MainActor () -> any ScanRecorder
    /// A player for a recorded scan.
    public var makeReplayPlayer: @MainActor (ScanSession, FeedbackSettings) throws -> any ReplayPlayer
    /// Reconstruction and measurement of a session.
    public var processing: any SessionProcessing
    /// The poses of a knee video (Vision on the phone; pose files elsewhere).
    public var poseSource: any PoseSource
    /// Where knee measurements are kept, one folder per patient.
    public var kneeStore: RangeOfMotionStore
    /// Keeps the phone awake and working while a scan is measured.
    public var processingActivity: any ProcessingActivity
    /// Dims the screen while recording.
    public var screenDimmer: any ScreenDimmer

    /// Dependencies from their parts; processing is the real one unless given, knee
    /// videos are read as pose files unless a pose source is given, and knee measurements
    /// are kept in the library's hidden `.knee` folder unless a store is given.
    public init(
        library: ScanLibrary, settings: SettingsStore, storage: any StorageMonitor, thermal: any ThermalMonitor,
        clock: any AppClock, player: any FeedbackPlayer, makeRecorder: @escaping @MainActor () -> any ScanRecorder,
        makeReplayPlayer: @escaping @MainActor (ScanSession, FeedbackSettings) throws -> any ReplayPlayer,
        processing: (any SessionProcessing)? = nil, poseSource: (any PoseSource)? = nil, kneeStore: RangeOfMotionStore? = nil,
        processingActivity: (any ProcessingActivity)? = nil, screenDimmer: (any ScreenDimmer)? = nil
    ) {
        self.processingActivity = processingActivity ?? NoProcessingActivity()
        self.screenDimmer = screenDimmer ?? NoScreenDimmer()
        self.processing = processing ?? LiveSessionProcessing(library: library)
        self.poseSource = poseSource ?? PoseFileSource()
        self.kneeStore = kneeStore ?? RangeOfMotionStore(root: library.root.appendingPathComponent(".knee", isDirectory: true))
        self.library = library
        self.settings = settings
        self.storage = storage
        self.thermal = thermal
        self.clock = clock
        self.player = player
        self.makeRecorder = makeRecorder
        self.makeReplayPlayer = makeReplayPlayer
    }
}

/// The screen on top, with its model. Every screen is modal over home; rename is modal over
/// files and replay over its selection.
public enum AppScreen {
    case home
    case instructions(ScanInstructionsModel)
    case scan(ScanModel)
    case patientData(PatientDataModel)
    case rating(ScanRatingModel)
    case replaySelection(ReplaySelectionModel)
    case replay(ReplayModel, over: ReplaySelectionModel)
    case files(FilesModel)
    case rename(RenameModel, over: FilesModel)
    case settings(SettingsModel)
    case onboarding(OnboardingModel)
    case consent(ConsentModel)
    case results(ResultsModel, over: ReplaySelectionModel)
    case kneePatient(KneePatientModel)
    case knee(KneeMeasurementModel)
    case gestures(GestureDemoModel)
}

/// The app's navigation: Scan → patient data → rating → home, and the other screens from
/// home and back.
@MainActor @Observable
public final class AppFlowModel {
    /// The home screen, always underneath.
    public let home: HomeModel
    /// The screen on top.
    public private(set) var screen = AppScreen.home
    /// The settings in force.
    public private(set) var settings: FeedbackSettings
    /// The cap new scans are recorded with.
    public private(set) var capLayout: CapLayout
    /// The texts in the settings' language.
    public private(set) var strings: Strings
    /// Why the app could not open something (a replay, say).
    public private(set) var problem: String?

    @ObservationIgnored private let deps: AppDependencies
    @ObservationIgnored private let processingJobs = ProcessingJobs()

    /// The app at home.
    public init(_ dependencies: AppDependencies) throws(StringsError) {
        deps = dependencies
        let loaded = (try? dependencies.settings.load()) ?? FeedbackSettings()
        let texts = try Strings(language: loaded.language)
        settings = loaded
        // A stored layout that no longer reads is reported on the settings screen.
        capLayout = (try? CapLayoutStore(store: dependencies.settings.store).load()) ?? .standard
        strings = texts
        home = HomeModel(storage: dependencies.storage, thermal: dependencies.thermal, player: dependencies.player, strings: texts)
        home.onOpen = { [unowned self] in self.open($0) }
        if OnboardingModel.isNeeded(dependencies.settings.store) {
            let onboarding = OnboardingModel(store: dependencies.settings.store, strings: texts)
            onboarding.onFinished = { [unowned self] in goHome() }
            screen = .onboarding(onboarding)
        }
    }

    /// Back to home, refreshing its status.
    public func goHome() {
        screen = .home
        home.refresh()
    }

    private func open(_ destination: HomeDestination) {
        problem = nil
        switch destination {
        case .instructions: screen = .instructions(ScanInstructionsModel(settings: settings, player: deps.player, strings: strings))
        case .scan: screen = .scan(makeScan())
        case .replay: screen = .replaySelection(makeReplaySelection())
        case .files: screen = .files(makeFiles())
        case .settings: screen = .settings(makeSettings())
        case .knee: screen = .kneePatient(makeKneePatient())
        case .gestures:
            do throws(GestureError) {
                screen = .gestures(try GestureDemoModel(strings: strings))
            } catch {
                problem = error.localizedDescription
            }
        }
    }

    private func makeKneePatient() -> KneePatientModel {
        let model = KneePatientModel(store: deps.kneeStore, strings: strings)
        model.onChosen = { [unowned self] id in
            do throws(RangeOfMotionError) {
                screen = .knee(
                    try KneeMeasurementModel(patientID: id, store: deps.kneeStore, source: deps.poseSource, clock: deps.clock, strings: strings))
            } catch {
                problem = error.localizedDescription
                goHome()
            }
        }
        return model
    }

    private func makeScan() -> ScanModel {
        let model = ScanModel(
            library: deps.library, recorder: deps.makeRecorder(), storage: deps.storage, thermal: deps.thermal,
            settings: settings, layout: capLayout, clock: deps.clock, strings: strings, player: deps.player, screen: deps.screenDimmer)
        model.onClose = { [unowned self] in goHome() }
        model.onSaved = { [unowned self] in screen = .patientData(makePatientData($0)) }
        return model
    }

    private func makePatientData(_ session: ScanSession) -> PatientDataModel {
        let model = PatientDataModel(session: session, library: deps.library, clock: deps.clock, strings: strings)
        model.onAborted = { [unowned self] in goHome() }
        model.onSaved = { [unowned self] saved in
            let consent = ConsentModel(session: saved, library: deps.library, clock: deps.clock, strings: strings)
            consent.onDecided = { [unowned self] _ in
                let rating = ScanRatingModel(session: saved, library: deps.library, settings: settings, clock: deps.clock, strings: strings)
                rating.onFinished = { [unowned self] in goHome() }
                screen = .rating(rating)
            }
            screen = .consent(consent)
        }
        return model
    }

    private func makeReplaySelection() -> ReplaySelectionModel {
        let selection = ReplaySelectionModel(library: deps.library, strings: strings)
        selection.onMeasure = { [unowned self, unowned selection] session in
            let results = ResultsModel(
                session: session, library: deps.library, processing: deps.processing, strings: strings,
                activity: deps.processingActivity, jobs: processingJobs)
            selection.resultsOpened()
            screen = .results(results, over: selection)
        }
        selection.onOpen = { [unowned self, unowned selection] session in
            do {
                let player = try deps.makeReplayPlayer(session, settings)
                let replay = ReplayModel(session: session, library: deps.library, player: player, clock: deps.clock, strings: strings)
                replay.onClose = { [unowned self, unowned selection] result in
                    selection.replayClosed(result)
                    screen = .replaySelection(selection)
                }
                screen = .replay(replay, over: selection)
            } catch {
                problem = strings(.replayFrameUnreadable, error.localizedDescription)
            }
        }
        return selection
    }

    /// Closes the results screen, back to the replay selection.
    public func closeResults() {
        guard case .results(let results, let selection) = screen else { return }
        results.close()
        selection.reload()
        screen = .replaySelection(selection)
    }

    private func makeFiles() -> FilesModel {
        let files = FilesModel(library: deps.library, strings: strings)
        files.onRename = { [unowned self, unowned files] session in
            let rename = RenameModel(session: session, library: deps.library, clock: deps.clock, strings: strings)
            rename.onClose = { [unowned self, unowned files] in
                files.renameFinished()
                screen = .files(files)
            }
            screen = .rename(rename, over: files)
        }
        return files
    }

    private func makeSettings() -> SettingsModel {
        let model = SettingsModel(store: deps.settings, strings: strings)
        model.onChange = { [unowned self] new in
            settings = new
            if new.language != strings.language, let s = try? Strings(language: new.language) {
                strings = s
                home.strings = s
            }
        }
        model.onCapLayoutChange = { [unowned self] in capLayout = $0 }
        return model
    }
}
