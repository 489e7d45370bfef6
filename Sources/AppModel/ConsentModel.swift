import AppSupport
import Foundation
import Observation
import ScanLibrary

/// The consent step after each scan: the parent agrees to research use or not. The answer is
/// stored with the session (consent.json), shown in Files, and required before any upload.
@MainActor @Observable
public final class ConsentModel {
    /// Why saving failed, if it did.
    public private(set) var failure: String?
    /// The decision saved, once saved.
    public private(set) var decision: Bool?
    /// Called after the decision was saved: the rating opens.
    @ObservationIgnored public var onDecided: (Bool) -> Void = { _ in }

    @ObservationIgnored public let session: ScanSession
    @ObservationIgnored private let library: ScanLibrary
    @ObservationIgnored private let clock: any AppClock
    @ObservationIgnored private let strings: Strings

    public init(session: ScanSession, library: ScanLibrary, clock: any AppClock, strings: Strings) {
        self.session = session
        self.library = library
        self.clock = clock
        self.strings = strings
        decision = (try? library.consent(in: session))?.researchUse
    }

    public var title: String { strings(.consentTitle) }
    public var question: String { strings(.consentQuestion) }
    public var agreeTitle: String { strings(.consentYes) }
    public var declineTitle: String { strings(.consentNo) }

    /// Saves the parent's answer.
    public func decide(researchUse: Bool) {
        do {
            try library.saveConsent(ConsentRecord(researchUse: researchUse, decidedAt: clock.now(), recordedBy: "HeadScan app"), in: session)
            decision = researchUse
            failure = nil
            onDecided(researchUse)
        } catch {
            failure = strings(.consentSaveFailed, strings.message(error))
        }
    }
}
