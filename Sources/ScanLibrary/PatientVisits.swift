import Cephalometry
import Foundation

/// One visit of a patient: a session with their ID, its date and what was measured.
public struct PatientVisit: Sendable, Equatable {
    /// The session of the visit.
    public var session: ScanSession
    /// When the scan was made (from the session's name).
    public var date: Date
    /// The patient's birth date, when any visit recorded it.
    public var birthDate: Date?
    /// The 3D measurement, when the session is measured.
    public var measurement: HeadMeasurement?
    /// The calliper values entered at the visit.
    public var calliper: CalliperMeasurements?

    /// Age at the visit in weeks, when the birth date is known.
    public var ageWeeks: Double? {
        birthDate.map { date.timeIntervalSince($0) / (7 * 24 * 3600) }
    }
}

extension ScanLibrary {
    /// Every session of patient `id`, oldest first; damaged documents leave their value out
    /// rather than the visit. A birth date given at any visit applies to all of them.
    public func visits(ofPatient id: Int, excluding excluded: ScanSession? = nil) throws(ScanLibraryError) -> [PatientVisit] {
        var visits: [PatientVisit] = []
        var births: [(entered: Date, birth: Date)] = []
        for entry in try list().entries where entry.session.name != excluded?.name {
            let patient = try? patient(in: entry.session)
            guard (patient?.patientID ?? entry.session.name.patientID) == id, let date = entry.session.name.date(in: timeZone) else { continue }
            if let patient, let birth = patient.birthDate { births.append((patient.enteredAt, birth)) }
            let measured = (try? measurement(in: entry.session))?.measurement
            visits.append(PatientVisit(session: entry.session, date: date, measurement: measured, calliper: patient?.calliper))
        }
        let birthDate = births.max { $0.entered < $1.entered }?.birth
        return visits.map { visit in
            var v = visit
            v.birthDate = birthDate
            return v
        }.sorted { $0.date < $1.date }
    }
}
