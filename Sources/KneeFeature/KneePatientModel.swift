import AppSupport
import Foundation
import Observation
import RangeOfMotion

/// The step before the knee measurement: whose knee. The ID names the patient's folder of
/// knee measurements; patients measured before are offered to tap.
@MainActor @Observable
public final class KneePatientModel {
    /// The ID as typed.
    public var patientID = "" { didSet { problem = nil } }
    /// Why the typed ID cannot be used; nil while it may be.
    public private(set) var problem: String?
    /// Patients with knee measurements on this device, sorted.
    public private(set) var knownPatients: [String] = []
    /// Called with a valid ID.
    @ObservationIgnored public var onChosen: (String) -> Void = { _ in }

    @ObservationIgnored private let strings: Strings

    /// The step with the store's patients listed.
    public init(store: RangeOfMotionStore, strings: Strings) {
        self.strings = strings
        knownPatients = store.patients()
    }

    /// The screen's title.
    public var title: String { strings(.kneePatientTitle) }

    /// Whether the continue button is enabled.
    public var canContinue: Bool { !patientID.trimmingCharacters(in: .whitespaces).isEmpty }

    /// Continues with the typed ID, or shows why it cannot be used.
    public func confirm() {
        let id = patientID.trimmingCharacters(in: .whitespaces)
        do throws(RangeOfMotionError) {
            try RangeOfMotionStore.validate(patientID: id)
            onChosen(id)
        } catch {
            problem = strings(.errorInvalidPatientID, id)
        }
    }

    /// Continues with a patient measured before.
    public func choose(_ id: String) {
        patientID = id
        confirm()
    }
}
