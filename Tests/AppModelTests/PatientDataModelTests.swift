import AppModel
import AppModelTesting
import Foundation
import ScanLibrary
import Testing

@MainActor
struct PatientDataModelTests {
    func fill(_ model: PatientDataModel, id: String = "12") {
        model.setText(id, for: .patientID)
        model.setText("140", for: .length)
        model.setText("120,5", for: .width)
        model.setText("150.0", for: .diagonalA)
        model.setText("142,5", for: .diagonalB)
        model.setText("430", for: .circumference)
    }

    @Test func savesValidValuesAndNamesTheScanAfterTheID() throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        let session = try lib.library.createSession(date: Date(timeIntervalSince1970: 1_714_559_400))
        let model = PatientDataModel(session: session, library: lib.library, clock: TestClock(), strings: strings())
        #expect(!model.canSave)
        #expect(PatientField.allCases.allSatisfy { !model.showsError($0) })
        fill(model)
        #expect(model.canSave)
        var saved: ScanSession?
        model.onSaved = { saved = $0 }
        model.save()
        #expect(saved?.name.rawValue == "12_2024-05-01T10-30-00_Scan")
        let named = try #require(saved)
        let record = try #require(try lib.library.patient(in: named))
        #expect(record.patientID == 12)
        #expect(record.calliper.widthMM == 120.5 && record.calliper.diagonalBMM == 142.5 && record.calliper.circumferenceMM == 430)
    }

    @Test(arguments: [
        (PatientField.patientID, "", FieldProblem.missing),
        (.patientID, "12a", .notAWholeNumber),
        (.patientID, "0", .notAWholeNumber),
        (.patientID, "-3", .notAWholeNumber),
        (.patientID, "1.5", .notAWholeNumber),
        (.birthDate, "31.02.2024", .notADate),
        (.birthDate, "2024/01/05", .notADate),
        (.birthDate, "01.01.2099", .dateInFuture),
        (.length, "", .missing),
        (.length, "1,2.3", .twoSeparators),
        (.width, "12,,5", .twoSeparators),
        (.diagonalA, "abc", .notANumber),
        (.diagonalA, ",5", .notANumber),
        (.diagonalB, "150,", .notANumber),
        (.diagonalB, "1e3", .notANumber),
        (.length, "14", .outOfRange(50...250)),
        (.circumference, "43", .outOfRange(250...650)),
    ])
    func rejectsInvalidFields(field: PatientField, text: String, problem: FieldProblem) throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        _ = try lib.savedSession(id: 7)
        let session = try lib.library.createSession(date: Date(timeIntervalSince1970: 1_714_560_000))
        let model = PatientDataModel(session: session, library: lib.library, clock: TestClock(), strings: strings())
        fill(model)
        model.setText(text, for: field)
        #expect(model.problem(field) == problem)
        #expect(model.showsError(field))
        #expect(model.errorMessage(field) != nil)
        #expect(!model.canSave)
        model.save()
        #expect(try lib.library.patient(in: session) == nil)
    }

    @Test func anIDInUseIsAFurtherVisitWithTheEarlierOnesListed() throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        _ = try lib.savedSession(id: 7)
        _ = try lib.savedSession(id: 3, minute: 1)
        let session = try lib.library.createSession(date: Date(timeIntervalSince1970: 1_714_569_400))
        let model = PatientDataModel(session: session, library: lib.library, clock: TestClock(), strings: strings())
        #expect(model.usedIDs == [3, 7])
        model.setText("4", for: .patientID)
        #expect(model.knownPatientNote == nil && model.earlierVisits.isEmpty)
        fill(model, id: "3")
        #expect(model.problem(.patientID) == nil)
        #expect(model.earlierVisits.map(\.session) == ["3_2024-05-01T10-31-00_Scan"])
        #expect(model.earlierVisits.first?.cvai == "not measured")
        #expect(model.knownPatientNote?.contains("further visit") == true)
        model.setText("14.03.2024", for: .birthDate)
        #expect(model.canSave)
        var saved: ScanSession?
        model.onSaved = { saved = $0 }
        model.save()
        #expect(saved?.name.id == "3")
        #expect(try lib.library.visits(ofPatient: 3).count == 2)
        let record = try #require(try lib.library.patient(in: saved!))
        #expect(record.birthDate.map { ISO8601DateFormatter().string(from: $0) } == "2024-03-14T12:00:00Z")
    }

    @Test func abortDeletesTheScanAfterConfirmation() throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        let session = try lib.library.createSession(date: Date(timeIntervalSince1970: 1_714_559_400))
        let model = PatientDataModel(session: session, library: lib.library, clock: TestClock(), strings: strings())
        var aborted = false
        model.onAborted = { aborted = true }
        model.requestAbort()
        #expect(model.isConfirmingAbort)
        model.cancelAbort()
        #expect(!model.isConfirmingAbort && !aborted)
        #expect(try lib.library.list().entries.count == 1)
        model.requestAbort()
        model.confirmAbort()
        #expect(aborted)
        #expect(try lib.library.list().entries.isEmpty)
    }

    @Test func aFailedRenameKeepsTheFormAndTheOldState() throws {
        let lib = TemporaryLibrary(fileSystem: FailingMoveFileSystem())
        defer { lib.cleanUp() }
        let session = try lib.library.createSession(date: Date(timeIntervalSince1970: 1_714_559_400))
        let model = PatientDataModel(session: session, library: lib.library, clock: TestClock(), strings: strings())
        fill(model)
        var saved = false
        model.onSaved = { _ in saved = true }
        model.save()
        #expect(!saved)
        #expect(model.failure?.contains("injected failure") == true)
        #expect(model.session == session)
        #expect(try lib.library.patient(in: session) == nil)
    }
}
