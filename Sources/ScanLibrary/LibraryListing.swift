/// Whether a session's four landmarks are annotated.
public enum AnnotationStatus: String, Sendable, Codable {
    /// Some landmark is still missing.
    case toDo
    /// All four landmarks are placed.
    case allSet
}

/// A session as the Files and Replay screens list it.
public struct LibraryEntry: Sendable, Equatable {
    /// The session.
    public var session: ScanSession
    /// Whether the scan file is there.
    public var hasScan: Bool
    /// The patient ID from `patient.json`, when saved and readable.
    public var patientID: Int?
    /// Whether `rating.json` exists.
    public var isRated: Bool
    /// To do or all set, by `annotations.json`.
    public var annotationStatus: AnnotationStatus
    /// Whether `measurement.json` exists.
    public var isMeasured: Bool
    /// Whether the reconstructed mesh exists.
    public var hasMesh: Bool
    /// The parent's research decision: nil when not asked yet.
    public var researchConsent: Bool?
    /// Documents that could not be read; the entry is listed all the same.
    public var problems: [ScanLibraryError]
}

/// Something in the library folder that is not a session.
public struct StrayItem: Sendable, Equatable {
    /// Its name.
    public var name: String
    /// Why it is not listed as a session.
    public var reason: String
}

/// Everything in the library folder.
public struct LibraryListing: Sendable, Equatable {
    /// The sessions, oldest first.
    public var entries: [LibraryEntry]
    /// Items that are not sessions (left alone, shown so that nothing disappears silently).
    public var strays: [StrayItem]
}
