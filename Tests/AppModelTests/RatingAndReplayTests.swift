import AppModel
import AppModelTesting
import Cephalometry
import Feedback
import Foundation
import ScanLibrary
import Testing

@MainActor
struct RatingAndReplayTests {
    @Test func ratingSavesWithTheSettingsInForce() throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        let session = try lib.savedSession(id: 1)
        var settings = FeedbackSettings()
        settings.positionAudio = .tooCloseOnly
        let model = ScanRatingModel(session: session, library: lib.library, settings: settings, clock: TestClock(), strings: strings())
        model.scanQuality = 9
        model.capFit = 0
        #expect(model.scanQuality == 5 && model.capFit == 1)
        #expect(model.questions.count == 6)
        model.childCooperative = false
        #expect(model.showsBehaviourNote && !model.canSave)
        #expect(model.behaviourNoteProblem == strings()(.ratingNoteMissing))
        model.save()
        #expect(try lib.library.rating(in: session) == nil)
        model.behaviourNote = "  cried the whole time "
        var finished = false
        model.onFinished = { finished = true }
        model.save()
        #expect(finished)
        let rating = try #require(try lib.library.rating(in: session))
        #expect(rating.settings == settings && rating.behaviourNote == "cried the whole time" && !rating.childCooperative)
    }

    @Test func aNoteIsDroppedWhenTheChildWasCooperative() throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        let model = ScanRatingModel(
            session: try lib.savedSession(id: 1), library: lib.library, settings: FeedbackSettings(), clock: TestClock(), strings: strings())
        model.behaviourNote = "typed, then toggled back"
        #expect(model.canSave && !model.showsBehaviourNote)
        #expect(model.record.behaviourNote == nil)
    }

    @Test func selectionListsNamedScansWithTheirTags() throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        let done = try lib.savedSession(id: 1)
        _ = try lib.savedSession(id: 2, minute: 1)
        _ = try lib.library.createSession(date: Date(timeIntervalSince1970: 1_714_569_400))  // temporary: not listed
        try lib.library.saveAnnotations(
            AnnotationsRecord(
                landmarks: Dictionary(
                    uniqueKeysWithValues: Landmark.allCases.map {
                        ($0, [LandmarkPick.pixel(frameIndex: 0, pixel: [1, 1])])
                    })), in: done)
        let model = ReplaySelectionModel(library: lib.library, strings: strings())
        #expect(model.rows.map(\.id) == ["1_2024-05-01T10-30-00_Scan", "2_2024-05-01T10-31-00_Scan"])
        #expect(model.rows.map(\.tag) == ["all set", "to do"])
        model.replayClosed(.saved)
        #expect(model.message == strings()(.replaySaved))
        model.replayClosed(.failed("disk full"))
        #expect(model.message == "Annotations could not be saved: disk full")
    }

    @Test func pausesOnlyOnAFrameWithEnoughOverlapThenPlacesLandmarks() async throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        let session = try lib.savedSession(id: 1)
        let model = ReplayModel(
            session: session, library: lib.library, player: ScriptedReplayPlayer(overlap: [false, false, true, false]), clock: TestClock(),
            strings: strings())
        await model.tick()
        model.select(.noseTip)
        #expect(model.selectedLandmark == nil)  // not while playing
        model.togglePlay()
        #expect(model.phase == .pausePending && model.instruction == strings()(.replayInstructionWaiting))
        await model.tick()
        #expect(model.phase == .pausePending)
        await model.tick()
        #expect(model.phase == .paused && model.frame?.index == 2)
        await model.tick()
        #expect(model.frame?.index == 2)  // paused stays put

        model.select(.noseTip)
        #expect(model.instruction == "Drag to place the nose tip; tap it again when done.")
        model.place(at: [100, 120])
        model.place(at: [104, 118])  // moved
        model.select(.leftTragion)
        model.place(at: [40, 200])
        model.select(.leftTragion)
        #expect(model.selectedLandmark == nil)
        #expect(model.isPlaced(.noseTip) && model.isPlaced(.leftTragion) && !model.isPlaced(.nasion))
        #expect(model.annotations.landmarks[.noseTip] == [.pixel(frameIndex: 2, pixel: [104, 118])])
        #expect(model.pickOnScreen(.noseTip) == [104, 118])
        #expect(model.pickCount(.noseTip) == 1)

        model.togglePlay()
        await model.tick()
        await model.tick()
        #expect(model.phase == .finished)
        model.remove(.leftTragion)
        var result: ReplayCloseResult?
        model.onClose = { result = $0 }
        model.close()
        #expect(result == .saved)
        let saved = try #require(try lib.library.annotations(in: session))
        #expect(saved.landmarks.keys.sorted { $0.rawValue < $1.rawValue } == [.noseTip])
    }

    @Test func restartsAndClosesUnchanged() async throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        let model = ReplayModel(
            session: try lib.savedSession(id: 1), library: lib.library, player: ScriptedReplayPlayer(overlap: [true]), clock: TestClock(),
            strings: strings())
        await model.tick()
        await model.tick()
        #expect(model.phase == .finished && model.playButtonTitle == strings()(.replayRestart))
        model.togglePlay()
        #expect(model.phase == .playing && model.frame == nil)
        await model.tick()
        #expect(model.frame?.index == 0)
        #expect(model.close() == .unchanged)
    }

    @Test func aFailedSaveIsReported() async throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        let session = try lib.savedSession(id: 1)
        let model = ReplayModel(
            session: session, library: lib.library, player: ScriptedReplayPlayer(overlap: [true]), clock: TestClock(), strings: strings())
        model.togglePlay()
        await model.tick()
        model.select(.nasion)
        model.place(at: [1, 2])
        try lib.library.delete([session])
        guard case .failed(let why) = model.close() else { Issue.record("expected a failure"); return }
        #expect(why == "The scan \(session.name.rawValue) no longer exists.")
    }

    @Test func corruptAnnotationsAreReportedAndTheViewTurnsAndZooms() throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        let session = try lib.savedSession(id: 1)
        try Data("{".utf8).write(to: session.annotationsURL)
        let model = ReplayModel(
            session: session, library: lib.library, player: ScriptedReplayPlayer(overlap: []), clock: TestClock(), strings: strings())
        #expect(model.problem == "annotations.json of \(session.name.rawValue) cannot be read.")
        model.rotate(yaw: 0.5, pitch: 3)
        model.zoom(by: 100)
        #expect(model.view.yaw == 0.5 && model.view.pitch == .pi / 2 && model.view.zoom == 8)
        model.zoom(by: -1)
        #expect(model.view.zoom == 8)
        model.resetView()
        #expect(model.view == CloudViewTransform())
    }
}
