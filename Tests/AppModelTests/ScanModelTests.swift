import AppModel
import AppModelTesting
import Feedback
import Foundation
import Markers
import ScanLibrary
import Testing

@MainActor
struct ScanModelTests {
    func makeModel(
        _ lib: TemporaryLibrary, free: Int64 = 10_000_000_000, thermal: ThermalState = .nominal, language: Language = .en,
        player: (any FeedbackPlayer)? = nil, screen: any ScreenDimmer = NoScreenDimmer()
    ) -> (ScanModel, ScriptedRecorder, TestClock) {
        let recorder = ScriptedRecorder()
        let clock = TestClock()
        let model = ScanModel(
            library: lib.library, recorder: recorder, storage: FixedStorageMonitor(freeBytes: free), thermal: FixedThermalMonitor(thermal),
            settings: FeedbackSettings(), clock: clock, strings: strings(language), player: player, screen: screen)
        return (model, recorder, clock)
    }

    @Test func recordPauseResumeStopThenPatientWhenTheTherapistContinues() async throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        let (model, recorder, clock) = makeModel(lib)
        #expect(model.alert == nil && model.canClose && !model.canStop)
        #expect(model.primaryButtonTitle == strings()(.scanRecord))

        await model.primaryAction()
        #expect(model.phase == .recording && !model.canClose && model.canStop)
        let session = try #require(model.session)
        #expect(FileManager.default.fileExists(atPath: session.scanURL.path))
        recorder.send(ScanProgressReport(percent: 55, colour: .orange))
        #expect(model.progress.percent == 55 && model.progress.colour == .orange)

        await model.primaryAction()
        #expect(model.phase == .paused && !model.canClose)
        await model.primaryAction()
        #expect(model.phase == .recording)

        var closed = false
        model.onClose = { closed = true }
        model.close()
        #expect(!closed)

        let opened = Box<ScanSession?>(nil)
        model.onSaved = { opened.value = $0 }
        await model.stop()
        // The summary stays until the therapist continues: no timer moves on.
        #expect(model.phase == .saved && model.confirmation == strings()(.scanSaved))
        #expect(clock.sleeps.isEmpty && opened.value == nil)
        #expect(model.primaryButtonTitle == strings()(.scanContinue) && model.canPressPrimary)
        await model.primaryAction()
        #expect(opened.value == session)
        #expect(recorder.calls == ["start", "pause", "resume", "stop"])
    }

    /// The screen draws the latest frame's cloud as the camera sees it, with the markers'
    /// colours explained; the recorder gets the cap and settings in force.
    @Test func theLiveCloudAndItsLegendFollowTheRecorder() async throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        let recorder = ScriptedRecorder()
        let layout = CapLayout(
            name: "two", dictionaryName: "4x4_50", markerSideMillimetres: 10,
            markers: [
                CapMarker(id: 0, region: .front), CapMarker(id: 1, region: .back),
            ])
        let model = ScanModel(
            library: lib.library, recorder: recorder, storage: FixedStorageMonitor(), thermal: FixedThermalMonitor(),
            settings: FeedbackSettings(), layout: layout, clock: TestClock(), strings: strings())
        #expect(model.projection(width: 300, height: 200) == nil)
        #expect(model.legend.map(\.text) == ["0 connected to earlier frames", "0 seen for the first time", "0 seen before, not in view"])
        await model.record()
        #expect(recorder.layout == layout && recorder.settings == FeedbackSettings())
        let cloud = PreviewCloud.head(points: 400, green: 3, red: 1, blue: 2)
        recorder.send(ScanProgressReport(percent: 7, colour: .red, cloud: cloud))
        let projection = try #require(model.projection(width: 320, height: 240))
        #expect(projection.points.count == cloud.points.count && projection.markers.count == 4)
        #expect(model.legend.map(\.text) == ["3 connected to earlier frames", "1 seen for the first time", "2 seen before, not in view"])
    }

    @Test func alertsForLowStorageAndHeat() {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        let (low, _, _) = makeModel(lib, free: 2_500_000_000)
        #expect(low.alert == .lowStorage)
        #expect(low.alertText?.title == strings()(.scanLowStorageTitle))
        low.dismissAlert()
        #expect(low.alert == nil)
        let (hot, _, _) = makeModel(lib, thermal: .critical)
        #expect(hot.alert == .overheating)
    }

    @Test func overheatingWhileRecordingAlerts() async {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        let (model, _, _) = makeModel(lib)
        await model.record()
        model.thermalStateChanged(.fair)
        #expect(model.alert == nil)
        model.thermalStateChanged(.serious)
        #expect(model.alert == .overheating)
        #expect(model.alertText?.message == strings()(.scanHotMessage))
    }

    @Test func aFailedStartLeavesNoSession() async throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        let (model, recorder, _) = makeModel(lib)
        recorder.startError = recorderFailure
        await model.record()
        #expect(model.phase == .ready && model.session == nil && model.canClose)
        #expect(model.alert == .failed("reading or writing scan.hscan failed: no space left on the device"))
        #expect(try lib.library.list().entries.isEmpty)
    }

    /// A second tap while the camera comes up must not start a second recording.
    @Test func recordWaitsInAStartingStateAndIgnoresASecondTap() async throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        let (model, recorder, _) = makeModel(lib)
        recorder.holdsStart = true
        let first = Task { await model.primaryAction() }
        while recorder.calls.isEmpty { await Task.yield() }
        #expect(model.phase == .starting && !model.canPressPrimary && !model.canClose)
        await model.primaryAction()
        await model.record()
        recorder.releaseStart()
        await first.value
        #expect(model.phase == .recording)
        #expect(recorder.calls == ["start"])
        #expect(try lib.library.list().entries.count == 1)
    }

    @Test func aFailedStartReturnsToReadyWithTheReason() async throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        let (model, recorder, _) = makeModel(lib)
        recorder.startError = CocoaError(.fileWriteOutOfSpace)
        await model.record()
        #expect(model.phase == .ready && model.canPressPrimary)
        guard case .failed = model.alert else { Issue.record("expected the failure alert"); return }
        #expect(try lib.library.list().entries.isEmpty)
    }

    @Test func theSavedSummaryIsSpoken() async throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        let player = RecordingFeedbackPlayer()
        let (model, recorder, _) = makeModel(lib, player: player)
        await model.record()
        recorder.send(ScanProgressReport(percent: 40, colour: .red, regionsCovered: [.front], featuresSeen: [.face], missingMarkers: [3]))
        await model.stop()
        let spoken = try #require(player.played.last)
        #expect(spoken.hasPrefix("en: " + strings()(.scanSaved)))
        #expect(!model.summary.isEmpty)
        for line in model.summary { #expect(spoken.contains(line)) }
    }

    /// Silence means "position fine": a camera that stops must be shown and heard at once.
    @Test func aStoppedCameraIsShownAndSpokenAtOnceAndItsReturnToo() async throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        let player = RecordingFeedbackPlayer()
        let (model, recorder, _) = makeModel(lib, player: player)
        await model.record()
        await model.captureProblem(.cameraStopped(reason: nil))
        #expect(model.alert == .cameraStopped(strings()(.scanCameraNoFrames)))
        #expect(player.played.last == "en: " + strings()(.scanCameraStoppedSpoken))
        // The alarm vibrates too, in its own pattern: the operator may not see the screen.
        #expect(recorder.calls.last == "alarm")
        #expect(model.phase == .recording)
        await model.captureProblem(.cameraBack)
        #expect(model.alert == nil)
        #expect(player.played.last == "en: " + strings()(.scanCameraBackSpoken))
    }

    /// Guidance runs before Record, writing nothing; Record then records, and closing without
    /// a recording turns the camera off.
    @Test func guidanceRunsBeforeRecordWithoutWriting() async throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        let (model, recorder, _) = makeModel(lib)
        await model.startPreview()
        #expect(model.previewing && model.phase == .ready)
        recorder.send(ScanProgressReport(percent: 12, colour: .red, featuresSeen: [.face]))
        #expect(model.progress.percent == 12)
        #expect(try lib.library.list().entries.isEmpty)
        await model.startPreview()
        #expect(recorder.calls == ["preview"])
        await model.record()
        #expect(recorder.calls == ["preview", "start"])
        #expect(model.phase == .recording && !model.previewing)

        let (other, otherRecorder, _) = makeModel(lib)
        await other.startPreview()
        other.close()
        for _ in 0..<1000 where otherRecorder.calls.count < 2 { await Task.yield() }
        #expect(otherRecorder.calls == ["preview", "stopPreview"])
    }

    /// A sensor getting too warm is shown and spoken while the recording goes on.
    @Test func aSensorTooWarmIsShownAndSpoken() async throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        let player = RecordingFeedbackPlayer()
        let (model, _, _) = makeModel(lib, player: player)
        await model.record()
        await model.captureProblem(.sensorTooWarm)
        #expect(model.alert == .overheating)
        #expect(player.played.last == "en: " + strings()(.scanHotSpoken))
        #expect(model.phase == .recording)
    }

    /// A full disk ends the recording at once; the scan so far is kept and the reason shown.
    @Test func aWriteFailureEndsTheRecordingAndKeepsTheScan() async throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        let player = RecordingFeedbackPlayer()
        let (model, recorder, _) = makeModel(lib, player: player)
        await model.record()
        recorder.report(.writeFailed("The disk is full."))
        for _ in 0..<10_000 where model.phase != .saved { await Task.yield() }
        #expect(model.phase == .saved)
        #expect(model.alert == .failed("The disk is full."))
        #expect(player.played.contains("en: " + strings()(.scanWriteFailedSpoken)))
        #expect(recorder.calls == ["start", "alarm", "stop"])
        let session = try #require(model.session)
        #expect(FileManager.default.fileExists(atPath: session.scanURL.path))
    }

    @Test func framesNotSavedWhileTheWriterLagsAreShown() async throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        let (model, recorder, _) = makeModel(lib)
        await model.record()
        recorder.send(ScanProgressReport(percent: 10, colour: .red))
        #expect(model.framesNotWrittenNote == nil)
        var lagging = ScanProgressReport(percent: 12, colour: .red)
        lagging.framesNotWritten = 42
        recorder.send(lagging)
        #expect(model.framesNotWrittenNote?.hasPrefix("42 frames not saved") == true)
    }

    /// The screen faces the infant: dark while recording, as bright as before otherwise.
    @Test func theScreenIsDimmedOnlyWhileRecording() async throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        let screen = RecordingScreenDimmer()
        let (model, _, _) = makeModel(lib, screen: screen)
        await model.record()
        #expect(screen.calls == ["dim"])
        await model.pause()
        await model.resume()
        await model.stop()
        #expect(screen.calls == ["dim", "restore", "dim", "restore"])
    }

    /// A camera that cannot start is explained in the app's language.
    @Test func cameraFailuresAreSaidInTheAppsLanguage() async throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        for (language, failure, start) in [
            (Language.de, CameraFailure.notAuthorized, "Der Kamerazugriff"), (.en, .noFrames, "The camera delivered no pictures"),
            (.de, .setupFailed("video output"), "Die Kamera konnte nicht eingerichtet werden: video output"),
        ] {
            let (model, recorder, _) = makeModel(lib, language: language)
            recorder.startError = failure
            await model.record()
            #expect(model.alertText?.message.contains(start) == true)
        }
    }
}
