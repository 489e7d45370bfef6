import Foundation
import ScanLibrary

/// What a session may hold when it leaves the device for research: an allow-list of file
/// names, each with its kind and largest size, and the fields that never leave. The client
/// sends only these, and the server refuses anything else before it stores a byte.
public enum ResearchFiles {
    /// How a file is checked.
    public enum Kind: Sendable, Hashable {
        /// The recording (`.hscan`): its header is checked, frames are pixels.
        case scan
        /// A PLY mesh: its header may carry only the lines HeadScan writes.
        case mesh
        /// A JSON document, checked against its type.
        case document
    }

    /// Accepted names, their kinds and size limits in bytes.
    public static let accepted: [String: (kind: Kind, maximumBytes: Int64)] = [
        ScanSession.scanFileName: (.scan, UploadProtocol.maximumFileSize),
        ScanSession.meshFileName: (.mesh, 1 << 30),
        ConsentRecord.fileName: (.document, 64 << 10),
        PatientRecord.fileName: (.document, 64 << 10),
        RatingRecord.fileName: (.document, 256 << 10),
        AnnotationsRecord.fileName: (.document, 4 << 20),
        MeasurementRecord.fileName: (.document, 16 << 20),
        "reconstruction.json": (.document, 64 << 20),
        "feedback.json": (.document, 16 << 20),
    ]

    /// Fields that are free text a person typed: they stay on the device.
    public static let keptFields: [String: Set<String>] = [RatingRecord.fileName: ["behaviourNote"]]

    /// Keys of a scan header's `metadata` that may leave the device (the simulator's truth);
    /// everything else there (notes, source folder names) stays.
    public static let scanMetadataKeys: Set<String> = ["scenario", "seed", "cvai", "flatSide", "operator"]

    /// Longest value of a scan header's metadata, device or app version that leaves the device.
    public static let maximumLabelLength = 64

    /// The pseudonymised session name's ID part: the 13-digit pseudonym, or `new` for a scan
    /// without patient data.
    public static func isResearchID(_ id: String) -> Bool {
        if id == SessionName.temporaryID { return true }
        guard id.utf8.count == 13, let number = Int(id), String(number) == id else { return false }
        return pseudonymRange.contains(number)
    }

    /// Pseudonyms are 13-digit numbers.
    public static let pseudonymRange = 1_000_000_000_000...9_999_999_999_999

    /// Why `name` is not a session name the service accepts; nil when it is.
    public static func problem(withSessionName text: String) -> String? {
        guard let name = try? SessionName(parsing: text), name.rawValue == text else {
            return "it is not a session name like PSEUDONYM_2026-04-27T00-00-01_Scan"
        }
        guard isResearchID(name.id) else {
            return "its ID part is not a 13-digit pseudonym; upload with the HeadScan client, which replaces the patient ID on the device"
        }
        guard ResearchCalendar.isResearchTimestamp(name.timestamp) else {
            return
                "its date is not the Monday of the scan's week followed by the scan's number that week (T00-MM-SS); upload with the HeadScan client, which takes the time of day out"
        }
        return nil
    }
}
