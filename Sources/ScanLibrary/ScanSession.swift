import Foundation

/// One scan session: a folder named `[ID]_[date]_Scan` holding the scan and its documents.
public struct ScanSession: Sendable, Hashable {
    /// The folder's name.
    public let name: SessionName
    /// The folder.
    public let url: URL

    /// The scan file's name inside every session folder.
    public static let scanFileName = "scan.hscan"
    /// The reconstructed head mesh's name.
    public static let meshFileName = "head.ply"
    /// The head mesh coloured by its asymmetry map, written with the report.
    public static let asymmetryFileName = "asymmetry.ply"

    /// The session named `name` in the library folder `root`.
    public init(name: SessionName, root: URL) {
        self.name = name
        url = root.appendingPathComponent(name.rawValue, isDirectory: true)
    }

    /// Where the recording is streamed to (`scan.hscan`).
    public var scanURL: URL { url.appendingPathComponent(Self.scanFileName, isDirectory: false) }
    /// The reconstructed head mesh (`head.ply`).
    public var meshURL: URL { url.appendingPathComponent(Self.meshFileName, isDirectory: false) }
    /// `patient.json`.
    public var patientURL: URL { documentURL(PatientRecord.self) }
    /// `rating.json`.
    public var ratingURL: URL { documentURL(RatingRecord.self) }
    /// `annotations.json`.
    public var annotationsURL: URL { documentURL(AnnotationsRecord.self) }
    /// `measurement.json`.
    public var measurementURL: URL { documentURL(MeasurementRecord.self) }

    /// Where a document of type `D` lives in this session.
    public func documentURL<D: LibraryDocument>(_ type: D.Type) -> URL {
        url.appendingPathComponent(D.fileName, isDirectory: false)
    }
}
