import Cephalometry
import Foundation
import ScanLibrary

/// `patient.json` as it leaves the device: the pseudonym instead of the patient ID, the age at
/// the visit in whole weeks (months after the first year) instead of the birth date, and the
/// hand measurements; no names, no dates.
public struct ResearchPatientRecord: LibraryDocument {
    public static let fileName = PatientRecord.fileName
    public static let currentVersion = 1
    public static let fieldNames: Set<String> = ["patientID", "pseudonymisation", "calliper", "ageAtVisitWeeks", "ageAtVisitMonths"]
    /// The only pseudonymisation this version writes.
    public static let method = "hmac-sha256-v1"

    /// The patient's pseudonym (13 digits).
    public var patientID: Int
    /// How the ID was replaced (`hmac-sha256-v1`).
    public var pseudonymisation: String
    public var calliper: CalliperMeasurements
    /// Whole weeks of age at the visit, in the first year.
    public var ageAtVisitWeeks: Int?
    /// Whole months of age at the visit, after the first year.
    public var ageAtVisitMonths: Int?

    public init(pseudonym: Int, calliper: CalliperMeasurements, age: ResearchAge?) {
        patientID = pseudonym
        pseudonymisation = Self.method
        self.calliper = calliper
        switch age {
        case .weeks(let weeks): ageAtVisitWeeks = weeks
        case .months(let months): ageAtVisitMonths = months
        case nil: break
        }
    }

    public func validate() throws(ScanLibraryError) {
        func fail(_ reason: String) -> ScanLibraryError { .invalidDocument(file: Self.fileName, reason: reason) }
        guard ResearchFiles.pseudonymRange.contains(patientID) else { throw fail("patientID is not a 13-digit pseudonym") }
        guard pseudonymisation == Self.method else { throw fail("pseudonymisation must be \(Self.method)") }
        if let weeks = ageAtVisitWeeks, !(0...52).contains(weeks) { throw fail("ageAtVisitWeeks must lie between 0 and 52") }
        if let months = ageAtVisitMonths, !(12...240).contains(months) { throw fail("ageAtVisitMonths must lie between 12 and 240") }
        guard ageAtVisitWeeks == nil || ageAtVisitMonths == nil else { throw fail("give the age in weeks or in months, not both") }
        do {
            try calliper.validate()
        } catch {
            throw fail("\(error)")
        }
    }
}
