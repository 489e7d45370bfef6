import AppModel
import AppModelTesting
import Feedback
import Foundation
import ScanLibrary
import Testing

@MainActor
struct FilesRenameSettingsTests {
    @Test func editModeSelectsAndDeletesAfterConfirmation() throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        for id in 1...3 { _ = try lib.savedSession(id: id, minute: id) }
        try Data("x".utf8).write(to: lib.library.root.appendingPathComponent("notes.txt"))
        let model = FilesModel(library: lib.library, strings: strings())
        #expect(model.rows.count == 3 && model.strays == ["notes.txt is not a scan and is left untouched"])
        model.toggleSelection(model.rows[0])
        #expect(model.selection.isEmpty)  // only in edit mode
        model.toggleEditing()
        #expect(model.hints.count == 2 && model.editButtonTitle == strings()(.filesDone))
        model.toggleSelection(model.rows[0])
        #expect(model.canRename && model.canDelete)
        model.toggleSelection(model.rows[1])
        #expect(!model.canRename && model.canDelete)
        #expect(model.deleteQuestion == "Delete 2 scans permanently?")
        model.requestDelete()
        #expect(model.isConfirmingDelete)
        model.cancelDelete()
        #expect(try lib.library.list().entries.count == 3)
        model.requestDelete()
        model.confirmDelete()
        #expect(model.rows.map(\.session.name.id) == ["3"] && model.selection.isEmpty)
        #expect(model.message == "2 deleted")
        model.toggleEditing()
        #expect(!model.canDelete)
    }

    @Test func renameOpensOnlyWithExactlyOneSelected() throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        _ = try lib.savedSession(id: 1)
        _ = try lib.savedSession(id: 2, minute: 1)
        let model = FilesModel(library: lib.library, strings: strings())
        var opened: [String] = []
        model.onRename = { opened.append($0.name.rawValue) }
        model.toggleEditing()
        model.renameSelected()
        model.toggleSelection(model.rows[0])
        model.toggleSelection(model.rows[1])
        model.renameSelected()
        model.toggleSelection(model.rows[1])
        model.renameSelected()
        #expect(opened == ["1_2024-05-01T10-30-00_Scan"])
    }

    @Test func renameValidatesReportsAndClosesAfterThreeSeconds() async throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        let session = try lib.savedSession(id: 1)
        _ = try lib.savedSession(id: 2, minute: 1)
        let clock = TestClock()
        let model = RenameModel(session: session, library: lib.library, clock: clock, strings: strings())
        #expect(model.newName == model.currentName && !model.canRename && model.problem == nil)
        let cases = [
            ("../1_2024-05-01T10-30-00_Scan", "Invalid name: /, \\ and : are not allowed"),
            ("1..x_2024-05-01T10-30-00_Scan", "Invalid name: \"..\" and a leading dot are not allowed"),
            ("1\u{202E}_2024-05-01T10-30-00_Scan", "Invalid name: the character U+202E is not allowed"),
            ("1_2024-13-01T10-30-00_Scan", "Invalid name: 2024-13-01T10-30-00 is not a date of the form yyyy-MM-ddTHH-mm-ss"),
            ("1_Scan", "Invalid name: use the form ID_date_Scan"),
            ("2_2024-05-01T10-31-00_Scan", "A scan named 2_2024-05-01T10-31-00_Scan exists already."),
        ]
        for (name, message) in cases {
            model.newName = name
            #expect(model.problem == message)
            #expect(!model.canRename)
            await model.rename()
            #expect(model.result == nil)
        }
        model.newName = "1-Huber_2024-05-01T10-30-00_Scan"
        #expect(model.canRename)
        let resultDuringWait = Box<String?>(nil)
        clock.onSleep = { _ in resultDuringWait.value = model.result }
        let closed = Box(false)
        model.onClose = { closed.value = true }
        await model.rename()
        #expect(resultDuringWait.value == "Renamed to 1-Huber_2024-05-01T10-30-00_Scan")
        #expect(clock.sleeps == [3] && closed.value && model.succeeded)
        #expect(try lib.library.list().entries.map(\.session.name.id) == ["1-Huber", "2"])
    }

    @Test func aFailedRenameStaysOpenAndChangesNothing() async throws {
        let lib = TemporaryLibrary()
        let session = try lib.savedSession(id: 1)
        defer { lib.cleanUp() }
        let failing = ScanLibrary(root: lib.library.root, fileSystem: FailingMoveFileSystem(), timeZone: lib.library.timeZone)
        let clock = TestClock()
        let model = RenameModel(session: session, library: failing, clock: clock, strings: strings())
        model.newName = "5_2024-05-01T10-30-00_Scan"
        var closed = false
        model.onClose = { closed = true }
        await model.rename()
        #expect(model.result == "Nothing was changed: injected failure")
        #expect(!closed && clock.sleeps.isEmpty && !model.succeeded)
        #expect(try lib.library.list().entries.map(\.session) == [session])
    }

    @Test func settingsPersistEveryChangeAndRefuseInvalidOnes() throws {
        let store = InMemoryKeyValueStore()
        let model = SettingsModel(store: SettingsStore(store: store), strings: strings())
        #expect(model.markerCount == 57 && model.progressIncrement == .every25 && model.language == .de && model.problem == nil)
        var seen: [FeedbackSettings] = []
        model.onChange = { seen.append($0) }
        model.markerCount = 50
        model.progressIncrement = .only100
        model.positionAudio = .tooCloseOnly
        model.phrasing = .headInPicture
        model.language = .en
        #expect(seen.count == 5)
        let loaded = try SettingsStore(store: store).load()
        #expect(loaded.markerCount == 50 && loaded.progressIncrement == .only100 && loaded.positionAudio == .tooCloseOnly)
        #expect(loaded.phrasing == .headInPicture && loaded.language == .en)
        model.markerCount = 0
        #expect(model.markerCount == 50 && model.problem != nil)
        #expect(try SettingsStore(store: store).load().markerCount == 50)
        #expect(model.title(ProgressIncrement.every50) == "Every 50 %")
        model.resetToDefaults()
        #expect(try SettingsStore(store: store).load() == FeedbackSettings())
    }

    @Test func unreadableSettingsFallBackToTheDefaultsWithAMessage() {
        let model = SettingsModel(store: SettingsStore(store: InMemoryKeyValueStore(["markerCount": .string("many")])), strings: strings())
        #expect(model.settings == FeedbackSettings())
        #expect(model.problem?.hasPrefix("Settings could not be read") == true)
    }
}
