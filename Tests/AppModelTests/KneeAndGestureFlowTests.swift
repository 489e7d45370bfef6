import AppModel
import AppModelTesting
import Feedback
import Foundation
import HeadGestures
import KneeFeature
import RangeOfMotion
import ScanLibrary
import Testing

/// The knee measurement and the gesture demo reached from home, and the model methods their
/// screens use beyond the measurement itself.
@MainActor
struct KneeAndGestureFlowTests {
    private func makeFlow(_ lib: TemporaryLibrary, source: FakePoseSource, kneeRoot: URL) throws -> AppFlowModel {
        let deps = AppDependencies(
            library: lib.library, settings: SettingsStore(store: InMemoryKeyValueStore([OnboardingModel.seenKey: .bool(true)])),
            storage: FixedStorageMonitor(freeBytes: 10_000_000_000), thermal: FixedThermalMonitor(), clock: TestClock(),
            player: RecordingFeedbackPlayer(),
            makeRecorder: { ScriptedRecorder() }, makeReplayPlayer: { _, _ in ScriptedReplayPlayer(overlap: [true]) },
            poseSource: source, kneeStore: RangeOfMotionStore(root: kneeRoot))
        return try AppFlowModel(deps)
    }

    private func leg(_ side: BodySide) -> PoseSequence {
        var s = LegSimulation()
        s.leg.side = side
        s.leg.motion.extensionDegrees = 0
        s.leg.motion.flexionDegrees = 120
        return LegSimulator(s).video(seed: 5).poses
    }

    @Test func homeOpensTheKneeMeasurementAfterAValidPatientID() async throws {
        let lib = TemporaryLibrary()
        let kneeRoot = lib.folder.appendingPathComponent("knee-store")
        defer { lib.cleanUp() }
        try RangeOfMotionStore(root: kneeRoot).save(
            RangeOfMotionAnalyzer().analyze(leg(.left), side: .left), patientID: "P-7", date: Date(timeIntervalSince1970: 1_700_000_000),
            source: "old.mov")
        let source = FakePoseSource([.success(leg(.right))])
        let flow = try makeFlow(lib, source: source, kneeRoot: kneeRoot)
        flow.home.open(.knee)
        guard case .kneePatient(let patient) = flow.screen else { Issue.record("expected the patient step"); return }
        #expect(patient.knownPatients == ["P-7"] && patient.title == "Wessen Knie?")
        #expect(!patient.canContinue)
        patient.patientID = "../x"
        patient.confirm()
        #expect(patient.problem == "Die Patienten-ID ../x ist ungültig.")
        guard case .kneePatient = flow.screen else { Issue.record("an invalid ID must stay on the step"); return }
        patient.patientID = " 12 "
        #expect(patient.problem == nil && patient.canContinue)
        patient.confirm()
        guard case .knee(let knee) = flow.screen else { Issue.record("expected the knee measurement"); return }
        #expect(knee.patientID == "12" && knee.past.isEmpty)
        await knee.analyse(video: URL(fileURLWithPath: "/videos/knee.mov"))
        #expect(knee.screen == .result)
        #expect(FileManager.default.fileExists(atPath: kneeRoot.appendingPathComponent("12").path))

        flow.goHome()
        flow.home.open(.knee)
        guard case .kneePatient(let again) = flow.screen else { Issue.record("expected the patient step"); return }
        #expect(again.knownPatients == ["12", "P-7"])
        again.choose("P-7")
        guard case .knee(let earlier) = flow.screen else { Issue.record("expected the knee measurement"); return }
        #expect(earlier.past.count == 1 && earlier.past[0].side == "Links")
    }

    @Test func kneeMeasurementsDefaultToAHiddenFolderOfTheLibrary() throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        let deps = AppDependencies(
            library: lib.library, settings: SettingsStore(store: InMemoryKeyValueStore()), storage: FixedStorageMonitor(freeBytes: 1),
            thermal: FixedThermalMonitor(), clock: TestClock(), player: RecordingFeedbackPlayer(), makeRecorder: { ScriptedRecorder() },
            makeReplayPlayer: { _, _ in ScriptedReplayPlayer(overlap: [true]) })
        #expect(deps.kneeStore.root.lastPathComponent == ".knee" && deps.poseSource is PoseFileSource)
    }

    @Test func homeOpensTheGestureDemo() throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        let flow = try makeFlow(lib, source: FakePoseSource([]), kneeRoot: lib.folder)
        flow.home.open(.gestures)
        guard case .gestures(let demo) = flow.screen else { Issue.record("expected the gesture demo"); return }
        #expect(demo.title == "Kopfgesten" && demo.lastEventsTitle == "Letzte Ereignisse")
        demo.cameraFailed("keine Kamera")
        #expect(demo.problem == "Die Kamera konnte nicht gestartet werden: keine Kamera")
        demo.receive(FaceFrame(time: 0, width: 640, height: 480, face: nil))
        #expect(demo.problem == nil)
        flow.goHome()
        guard case .home = flow.screen else { Issue.record("expected home"); return }
    }

    @Test func kneeScreensGoBackAndShareTheReport() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("knee-share-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let model = try KneeMeasurementModel(
            patientID: "12", store: RangeOfMotionStore(root: root.appendingPathComponent("store")),
            source: FakePoseSource([.success(leg(.left))]), clock: TestClock(), strings: strings())
        model.back()
        #expect(model.screen == .welcome)
        model.start()
        model.showSidePicker()
        model.back()
        #expect(model.screen == .instructions)
        model.back()
        #expect(model.screen == .welcome)
        #expect(!model.canRetry && model.exportReport(to: root) == nil)

        model.videoUnavailable("the photo library refused")
        #expect(model.failure?.message == "The video could not be read: the photo library refused")
        model.dismissFailure()
        #expect(model.failure == nil && model.screen == .welcome)

        await model.analyse(video: URL(fileURLWithPath: "/videos/knee.mov"))
        #expect(model.screen == .result && model.canRetry)
        let url = try #require(model.exportReport(to: root.appendingPathComponent("share")))
        #expect(url.lastPathComponent.hasPrefix("knee-left_12_") && url.pathExtension == "pdf")
        let bytes = try Data(contentsOf: url)
        #expect(String(decoding: bytes.prefix(5), as: UTF8.self) == "%PDF-")

        // A file where the folder should be: the report cannot be written, and the failure says so.
        let blocked = root.appendingPathComponent("blocked")
        try Data("x".utf8).write(to: blocked)
        #expect(model.exportReport(to: blocked) == nil)
        #expect(model.failure?.message.hasPrefix("The report could not be written: ") == true)
        model.dismissFailure()
        #expect(model.failure == nil && model.screen == .result)
        model.back()
        #expect(model.screen == .welcome && model.past.count == 1)
    }
}
