import AppSupport
import Cephalometry
import Foundation
import Observation
import ScanLibrary

/// A field of the patient data screen.
public enum PatientField: String, Sendable, CaseIterable {
    case patientID, birthDate, length, width, diagonalA, diagonalB, circumference
}

/// An earlier visit of the patient, as the patient data screen lists it.
public struct EarlierVisit: Sendable, Equatable, Identifiable {
    public var id: String { session }
    /// The session's folder name.
    public var session: String
    /// The date, formatted.
    public var date: String
    /// The CVAI, formatted, or "not measured".
    public var cvai: String
}

/// The patient data screen: patient ID, birth date and calliper values, validated field by
/// field; an ID already in use is a further visit of that patient, whose earlier visits are
/// listed; save names the scan after the ID; abort deletes the scan after a confirmation.
@MainActor @Observable
public final class PatientDataModel {
    /// What is typed in each field.
    public private(set) var texts: [PatientField: String] = [:]
    /// Fields the user has typed in (errors show only there, not on a fresh form).
    public private(set) var edited: Set<PatientField> = []
    /// The IDs other scans use, ascending.
    public private(set) var usedIDs: [Int] = []
    /// The earlier visits of the patient whose ID is typed, oldest first; empty for a new patient.
    public private(set) var earlierVisits: [EarlierVisit] = []
    /// The birth date a known patient already has, used when the field is left empty.
    public private(set) var knownBirthDate: Date?
    /// Whether the abort confirmation is showing.
    public private(set) var isConfirmingAbort = false
    /// Why saving or aborting failed, if it did.
    public private(set) var failure: String?
    /// The session, under its new name once saved.
    public private(set) var session: ScanSession
    /// Called after saving, with the renamed session: the rating screen opens.
    @ObservationIgnored public var onSaved: (ScanSession) -> Void = { _ in }
    /// Called after the scan was deleted on abort: back home.
    @ObservationIgnored public var onAborted: () -> Void = {}

    @ObservationIgnored private let library: ScanLibrary
    @ObservationIgnored private let clock: any AppClock
    @ObservationIgnored private let strings: Strings

    /// The form for a freshly recorded `session`.
    public init(session: ScanSession, library: ScanLibrary, clock: any AppClock, strings: Strings) {
        self.session = session
        self.library = library
        self.clock = clock
        self.strings = strings
        do {
            usedIDs = try library.usedPatientIDs(excluding: session)
        } catch {
            failure = strings.message(error)
        }
    }

    /// The text of a field.
    public func text(_ field: PatientField) -> String { texts[field] ?? "" }

    /// Sets what is typed in a field.
    public func setText(_ text: String, for field: PatientField) {
        texts[field] = text
        edited.insert(field)
        if field == .patientID { lookUpPatient() }
    }

    /// A line saying the ID belongs to a known patient, nil for a new one.
    public var knownPatientNote: String? {
        guard !earlierVisits.isEmpty else { return nil }
        return strings(.patientKnown, String(earlierVisits.count))
    }

    private func lookUpPatient() {
        guard case .success(let id) = FieldParsing.wholeNumber(text(.patientID)), usedIDs.contains(id) else {
            earlierVisits = []
            knownBirthDate = nil
            return
        }
        do {
            let visits = try library.visits(ofPatient: id, excluding: session)
            knownBirthDate = visits.last?.birthDate
            earlierVisits = visits.map { v in
                EarlierVisit(
                    session: v.session.name.rawValue, date: strings.date(v.date),
                    cvai: v.measurement.map { strings.decimal($0.cvai, digits: 1) + " %" } ?? strings(.patientNotMeasured))
            }
        } catch {
            failure = strings.message(error)
        }
    }

    /// Why a field's value is not accepted, nil when it is.
    public func problem(_ field: PatientField) -> FieldProblem? {
        switch field {
        case .patientID:
            if case .failure(let p) = FieldParsing.wholeNumber(text(field)) { return p }
            return nil
        case .birthDate:
            guard !text(field).trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
            switch FieldParsing.date(text(field)) {
            case .failure(let p): return p
            case .success(let date): return date > clock.now() ? .dateInFuture : nil
            }
        default:
            if case .failure(let p) = FieldParsing.decimal(text(field), range: Self.range(field)) { return p }
            return nil
        }
    }

    /// Whether the field's label is red: typed in and not valid.
    public func showsError(_ field: PatientField) -> Bool { edited.contains(field) && problem(field) != nil }

    /// The message under a red field.
    public func errorMessage(_ field: PatientField) -> String? {
        guard showsError(field), let problem = problem(field) else { return nil }
        switch problem {
        case .missing: return strings(.fieldMissing)
        case .notAWholeNumber: return strings(.fieldNotWholeNumber)
        case .notADate: return strings(.fieldNotADate)
        case .dateInFuture: return strings(.fieldDateInFuture)
        case .notANumber: return strings(.fieldNotANumber)
        case .twoSeparators: return strings(.fieldTwoSeparators)
        case .outOfRange(let r): return strings(.fieldOutOfRange, strings.decimal(r.lowerBound, digits: 0), strings.decimal(r.upperBound, digits: 0))
        }
    }

    /// The field's label.
    public func label(_ field: PatientField) -> String {
        switch field {
        case .patientID: strings(.patientIDLabel)
        case .birthDate: strings(.patientBirthDateLabel)
        case .length: strings(.patientLengthLabel)
        case .width: strings(.patientWidthLabel)
        case .diagonalA: strings(.patientDiagonalALabel)
        case .diagonalB: strings(.patientDiagonalBLabel)
        case .circumference: strings(.patientCircumferenceLabel)
        }
    }

    /// Which diagonal is which: therapists confused A and B.
    public var diagonalHint: String { strings(.patientDiagonalHint) }

    /// Save is enabled only when every field is valid.
    public var canSave: Bool { PatientField.allCases.allSatisfy { problem($0) == nil } }

    /// The record the form describes, when every field is valid.
    public var record: PatientRecord? {
        guard canSave, case .success(let id) = FieldParsing.wholeNumber(text(.patientID)) else { return nil }
        func value(_ f: PatientField) -> Double {
            (try? FieldParsing.decimal(text(f), range: Self.range(f)).get()) ?? .nan
        }
        let calliper = CalliperMeasurements(
            lengthMM: value(.length), widthMM: value(.width), diagonalAMM: value(.diagonalA),
            diagonalBMM: value(.diagonalB), circumferenceMM: value(.circumference))
        let birth = (try? FieldParsing.date(text(.birthDate)).get()) ?? knownBirthDate
        return PatientRecord(patientID: id, calliper: calliper, enteredAt: clock.now(), birthDate: birth)
    }

    /// Writes `patient.json` and renames the scan after the ID, then opens the rating.
    public func save() {
        guard let record else { return }
        do {
            session = try library.savePatient(record, in: session)
            failure = nil
            onSaved(session)
        } catch {
            failure = strings.message(error)
            usedIDs = (try? library.usedPatientIDs(excluding: session)) ?? usedIDs
        }
    }

    /// Asks whether to delete the scan.
    public func requestAbort() { isConfirmingAbort = true }

    /// Keeps the scan after all.
    public func cancelAbort() { isConfirmingAbort = false }

    /// Deletes the scan and goes home.
    public func confirmAbort() {
        isConfirmingAbort = false
        do {
            try library.delete([session])
            onAborted()
        } catch {
            failure = strings.message(error)
        }
    }

    /// The abort confirmation's title, message and buttons.
    public var abortText: (title: String, message: String, confirm: String, cancel: String) {
        (strings(.patientAbortTitle), strings(.patientAbortMessage), strings(.patientAbortConfirm), strings(.commonCancel))
    }

    private static func range(_ field: PatientField) -> ClosedRange<Double> {
        field == .circumference ? CalliperMeasurements.plausibleCircumferenceMM : CalliperMeasurements.plausibleExtentMM
    }
}
