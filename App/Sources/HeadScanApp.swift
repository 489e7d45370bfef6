import AppModel
import AppSupport
import AppleDevices
import RangeOfMotion
import ScanLibrary
import SwiftUI

/// The iPhone app: every screen is a thin view over its `AppModel` model.
@main
struct HeadScanApp: App {
    @State private var flow: AppFlowModel?
    @State private var startupProblem: String?
    private let thermal = LiveThermalMonitor()

    var body: some Scene {
        WindowGroup {
            Group {
                if let flow {
                    RootView(flow: flow, thermal: thermal)
                } else {
                    Text(startupProblem ?? "").padding()
                }
            }
            .task { start() }
        }
    }

    @MainActor private func start() {
        guard flow == nil else { return }
        // Scans live in Documents, visible in Finder and the Files app (UIFileSharingEnabled).
        let documents = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
        let library = ScanLibrary(root: documents)
        // Knee measurements stay on the device, out of the scan folders.
        let support = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
        let dependencies = AppDependencies(
            library: library,
            settings: SettingsStore(store: UserDefaultsKeyValueStore()),
            storage: LiveStorageMonitor(url: documents),
            thermal: thermal,
            clock: SystemClock(),
            player: DeviceFeedbackPlayer(),
            makeRecorder: { LiveScanRecorder() },
            makeReplayPlayer: { session, settings in try ScanReplayPlayer(url: session.scanURL, settings: settings) },
            poseSource: VisionPoseSource(),
            kneeStore: RangeOfMotionStore(root: support.appendingPathComponent("Knee", isDirectory: true)),
            processingActivity: DeviceProcessingActivity(),
            screenDimmer: DeviceScreenDimmer())
        do {
            flow = try AppFlowModel(dependencies)
        } catch {
            startupProblem = error.localizedDescription
        }
    }
}

/// Home underneath, the current screen over it.
@MainActor
struct RootView: View {
    @Bindable var flow: AppFlowModel
    let thermal: LiveThermalMonitor

    var body: some View {
        HomeView(model: flow.home, strings: flow.strings, problem: flow.problem)
            .fullScreenCover(isPresented: presented) { screen }
            .task {
                for await state in thermal.changes() {
                    flow.home.thermalStateChanged(state)
                    if case .scan(let scan) = flow.screen { scan.thermalStateChanged(state) }
                }
            }
    }

    private var presented: Binding<Bool> {
        Binding(
            get: { if case .home = flow.screen { false } else { true } },
            set: { if !$0 { flow.goHome() } })
    }

    @ViewBuilder private var screen: some View {
        let strings = flow.strings
        switch flow.screen {
        case .home: EmptyView()
        case .instructions(let model): ScanInstructionsView(model: model, strings: strings, close: flow.goHome)
        case .scan(let model): CameraGate(strings: strings, close: flow.goHome) { ScanView(model: model, strings: strings) }
        case .patientData(let model): PatientDataView(model: model, strings: strings)
        case .rating(let model): ScanRatingView(model: model, strings: strings)
        case .replaySelection(let model):
            ReplaySelectionView(model: model, strings: strings, problem: flow.problem, close: flow.goHome)
        case .replay(let model, _): ReplayView(model: model, strings: strings)
        case .results(let model, _): ResultsView(model: model, strings: strings, close: flow.closeResults)
        case .files(let model): FilesView(model: model, strings: strings, close: flow.goHome)
        case .rename(let model, _): RenameView(model: model, strings: strings)
        case .settings(let model): SettingsView(model: model, strings: strings, close: flow.goHome)
        case .onboarding(let model): OnboardingView(model: model)
        case .consent(let model): ConsentView(model: model)
        case .kneePatient(let model): KneePatientView(model: model, strings: strings, close: flow.goHome)
        case .knee(let model): KneeMeasurementView(model: model, strings: strings, close: flow.goHome)
        case .gestures(let model): GestureDemoView(model: model, strings: strings, close: flow.goHome)
        }
    }
}
