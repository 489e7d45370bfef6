import AppModel
import AppModelTesting
import Feedback
import Foundation
import ScanLibrary
import Testing

@MainActor
struct AppFlowTests {
    /// A flow whose introduction was seen already, unless `store` says otherwise.
    func makeFlow(
        _ lib: TemporaryLibrary, store: InMemoryKeyValueStore = InMemoryKeyValueStore([OnboardingModel.seenKey: .bool(true)])
    ) throws -> (AppFlowModel, TestClock) {
        let clock = TestClock()
        let deps = AppDependencies(
            library: lib.library, settings: SettingsStore(store: store), storage: FixedStorageMonitor(freeBytes: 10_000_000_000),
            thermal: FixedThermalMonitor(), clock: clock, player: RecordingFeedbackPlayer(), makeRecorder: { ScriptedRecorder() },
            makeReplayPlayer: { _, _ in ScriptedReplayPlayer(overlap: [true, true]) })
        return (try AppFlowModel(deps), clock)
    }

    @Test func scanThenPatientThenRatingThenHome() async throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        let (flow, clock) = try makeFlow(lib)
        #expect(flow.strings.language == .de)
        flow.home.open(.scan)
        guard case .scan(let scan) = flow.screen else { Issue.record("expected the scan screen"); return }
        await scan.record()
        await scan.stop()
        guard case .scan = flow.screen else { Issue.record("the summary should stay until the therapist continues"); return }
        await scan.primaryAction()
        #expect(clock.sleeps.isEmpty)
        guard case .patientData(let patient) = flow.screen else { Issue.record("expected patient data"); return }
        for (field, text) in [
            (PatientField.patientID, "31"), (.length, "141"), (.width, "118"), (.diagonalA, "150"), (.diagonalB, "147"), (.circumference, "420"),
        ] {
            patient.setText(text, for: field)
        }
        patient.save()
        guard case .consent(let consent) = flow.screen else { Issue.record("expected the consent step"); return }
        consent.decide(researchUse: true)
        guard case .rating(let rating) = flow.screen else { Issue.record("expected the rating"); return }
        rating.scanQuality = 4
        rating.save()
        guard case .home = flow.screen else { Issue.record("expected home"); return }
        let entry = try #require(try lib.library.list().entries.first)
        #expect(entry.session.name.rawValue == "31_2024-05-01T10-30-00_Scan")
        #expect(entry.patientID == 31 && entry.isRated && entry.hasScan && entry.annotationStatus == .toDo)
        #expect(entry.researchConsent == true)
    }

    @Test func theIntroductionShowsOnFirstLaunchOnly() throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        let store = InMemoryKeyValueStore()
        let (flow, _) = try makeFlow(lib, store: store)
        guard case .onboarding(let intro) = flow.screen else { Issue.record("expected the introduction"); return }
        #expect(intro.pages.count == 3)
        #expect(intro.pages[2].text.contains("auf diesem Telefon"))
        #expect(intro.buttonTitle == "Weiter")
        intro.advance()
        intro.advance()
        #expect(intro.buttonTitle == "Los geht's")
        intro.advance()
        guard case .home = flow.screen else { Issue.record("expected home"); return }
        let (again, _) = try makeFlow(lib, store: store)
        guard case .home = again.screen else { Issue.record("the introduction showed twice"); return }
    }

    @Test func abortingThePatientDataDeletesTheScan() async throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        let (flow, _) = try makeFlow(lib)
        flow.home.open(.scan)
        guard case .scan(let scan) = flow.screen else { Issue.record("expected the scan screen"); return }
        await scan.record()
        await scan.stop()
        scan.continueAfterSaved()
        guard case .patientData(let patient) = flow.screen else { Issue.record("expected patient data"); return }
        patient.requestAbort()
        patient.confirmAbort()
        guard case .home = flow.screen else { Issue.record("expected home"); return }
        #expect(try lib.library.list().entries.isEmpty)
    }

    @Test func replayAndFilesReturnToTheirLists() async throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        _ = try lib.savedSession(id: 4)
        let (flow, _) = try makeFlow(lib)
        flow.home.open(.replay)
        guard case .replaySelection(let selection) = flow.screen else { Issue.record("expected the selection"); return }
        selection.open(try #require(selection.rows.first))
        guard case .replay(let replay, _) = flow.screen else { Issue.record("expected the replay"); return }
        replay.togglePlay()
        await replay.tick()
        replay.select(.nasion)
        replay.place(at: [10, 10])
        replay.close()
        guard case .replaySelection(let back) = flow.screen else { Issue.record("expected the selection"); return }
        #expect(back.message == strings(.de)(.replaySaved))

        flow.goHome()
        flow.home.open(.files)
        guard case .files(let files) = flow.screen else { Issue.record("expected files"); return }
        files.toggleEditing()
        files.toggleSelection(files.rows[0])
        files.renameSelected()
        guard case .rename(let rename, _) = flow.screen else { Issue.record("expected rename"); return }
        rename.newName = "4-B_2024-05-01T10-30-00_Scan"
        await rename.rename()
        guard case .files(let list) = flow.screen else { Issue.record("expected files"); return }
        #expect(list.rows.map(\.session.name.id) == ["4-B"])
    }

    @Test func changingTheLanguageSwitchesTheTexts() throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        let (flow, _) = try makeFlow(lib)
        flow.home.open(.settings)
        guard case .settings(let settings) = flow.screen else { Issue.record("expected settings"); return }
        settings.language = .en
        #expect(flow.strings.language == .en && flow.settings.language == .en)
        flow.goHome()
        #expect(flow.home.thermalText == "Temperature normal")
    }
}
