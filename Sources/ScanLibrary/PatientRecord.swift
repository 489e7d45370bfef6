import Cephalometry
import Foundation

/// `patient.json`: who was scanned and what the calliper and tape measured by hand.
public struct PatientRecord: LibraryDocument {
    public static let fileName = "patient.json"
    public static let currentVersion = 1
    public static let fieldNames: Set<String> = ["patientID", "calliper", "enteredAt", "birthDate"]

    /// The patient's ID, a positive whole number; every visit of the patient carries it.
    public var patientID: Int
    /// Head length, width, diagonals A and B and circumference in millimetres.
    public var calliper: CalliperMeasurements
    /// When the values were entered.
    public var enteredAt: Date
    /// The infant's birth date, when given: the age at each visit follows from it.
    public var birthDate: Date?

    /// A patient record from its values.
    public init(patientID: Int, calliper: CalliperMeasurements, enteredAt: Date, birthDate: Date? = nil) {
        self.patientID = patientID
        self.calliper = calliper
        self.enteredAt = enteredAt
        self.birthDate = birthDate
    }

    public func validate() throws(ScanLibraryError) {
        guard patientID > 0 else { throw .invalidPatientID(patientID) }
        if let birthDate, birthDate > enteredAt {
            throw .invalidDocument(file: Self.fileName, reason: "the birth date lies after the visit; check the date")
        }
        do {
            try calliper.validate()
        } catch {
            throw .invalidDocument(file: Self.fileName, reason: error.description)
        }
    }
}
