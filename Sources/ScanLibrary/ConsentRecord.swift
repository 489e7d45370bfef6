import Foundation

/// `consent.json`: whether the parent agreed that the scan may be used for research. Nothing
/// leaves the phone for research without a record that says yes.
public struct ConsentRecord: LibraryDocument {
    public static let fileName = "consent.json"
    public static let currentVersion = 1
    public static let fieldNames: Set<String> = ["researchUse", "decidedAt", "recordedBy"]

    /// The parent's decision: true when the scan may be used for research.
    public var researchUse: Bool
    /// When the decision was recorded.
    public var decidedAt: Date
    /// Who recorded it (the app, or the command line), for the audit trail.
    public var recordedBy: String

    public init(researchUse: Bool, decidedAt: Date, recordedBy: String) {
        self.researchUse = researchUse
        self.decidedAt = decidedAt
        self.recordedBy = recordedBy
    }
}

extension ScanLibrary {
    /// The session's consent record, nil when the parent has not been asked yet.
    public func consent(in session: ScanSession) throws(ScanLibraryError) -> ConsentRecord? {
        try document(ConsentRecord.self, in: session)
    }

    /// Records the parent's decision.
    public func saveConsent(_ consent: ConsentRecord, in session: ScanSession) throws(ScanLibraryError) {
        try save(consent, in: session)
    }
}
