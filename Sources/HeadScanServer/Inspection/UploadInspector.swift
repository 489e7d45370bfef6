import Cephalometry
import Feedback
import Foundation
import Geometry
import Processing
import Recording
import ScanLibrary
import Upload

/// Checks every file of an upload and makes the service's own encoding of it: only the files
/// research may have (see `ResearchFiles`), each JSON document exactly its type's shape (no
/// field its type lacks, no key twice, no free text, every date a week's start, every number
/// in range), the mesh decoded and written again by HeadScan's writer, the recording decoded and
/// written again with a header of closed vocabularies. What the service keeps is that encoding,
/// never the uploaded bytes. It runs in a helper process (`inspect-upload`) so that a file that
/// trips a decoder fails its upload and never the service. Every refusal is a 422 that names the
/// file and what to do; nothing of the content is logged.
enum UploadInspector {
    /// The comment the service's encoding of a mesh carries.
    static let meshComment = "HeadScan reconstruction, metres"
    /// Largest mesh the service decodes to check it.
    static let maximumMeshBytes = 64 << 20

    static func refuse(_ file: String, _ reason: String) -> APIError {
        APIError(.unprocessableContent, "\(file) is not accepted: \(reason)")
    }

    /// Checks the announced files: allow-listed names within their size limits.
    static func checkManifest(_ files: [ManifestFile]) throws(APIError) {
        for file in files {
            guard let rule = ResearchFiles.accepted[file.name] else {
                throw APIError(
                    .unprocessableContent,
                    "the file \(file.name.prefix(100)) is not accepted: a session for research holds only \(ResearchFiles.accepted.keys.sorted().joined(separator: ", ")); upload with the HeadScan client, which leaves the rest on the device"
                )
            }
            let limit = rule.kind == .mesh ? min(rule.maximumBytes, Int64(maximumMeshBytes)) : rule.maximumBytes
            guard file.size <= limit else {
                throw APIError(.contentTooLarge, "\(file.name) is larger than the \(limit) bytes the service accepts for it")
            }
        }
    }

    /// Checks the assembled file `name` at `input`, writes what the service keeps to `output`
    /// and returns the values the listing shows.
    static func inspect(_ name: String, at input: URL, writingTo output: URL, session: SessionName? = nil) throws(APIError) -> SessionValues {
        guard let kind = ResearchFiles.accepted[name]?.kind else { throw refuse(name, "this file name is not on the service's list") }
        switch kind {
        case .document:
            let (kept, values) = try checkDocument(name, at: input, session: session)
            try write(kept, to: output, name: name)
            return values
        case .mesh:
            try write(Data(try checkMesh(name, at: input)), to: output, name: name)
            return SessionValues()
        case .scan:
            try CanonicalScan.write(from: input, to: output)
            return SessionValues()
        }
    }

    /// Writes a kept file and waits until it is on the disk (it is the only copy kept).
    static func write(_ data: Data, to url: URL, name: String) throws(APIError) {
        do {
            guard FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                throw CocoaError(.fileWriteUnknown)
            }
            let handle = try FileHandle(forWritingTo: url)
            defer { try? handle.close() }
            try handle.write(contentsOf: data)
            try handle.synchronize()
        } catch {
            throw StorageLimits.noSpace(name)
        }
    }

    // MARK: documents

    /// The bytes kept of a document, and its values for the listing.
    static func checkDocument(_ name: String, at url: URL, session: SessionName? = nil) throws(APIError) -> (Data, SessionValues) {
        guard let data = try? Data(contentsOf: url) else { throw refuse(name, "it could not be read back") }
        do {
            try StrictJSON.check(data)
        } catch {
            throw refuse(name, error.description)
        }
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: data), case .object = value else {
            throw refuse(name, "it is not a JSON object")
        }
        let document: CanonicalDocument
        do {
            document = try canonical(name, data: data, session: session)
        } catch let error as APIError {
            throw error
        } catch {
            throw refuse(name, "it does not match its type (\(Self.reason(error)))")
        }
        guard let expected = try? JSONDecoder().decode(JSONValue.self, from: document.typed) else { throw refuse(name, "it cannot be checked") }
        if let path = expected.firstDifference(from: value) {
            throw refuse(name, "the field \(LogText.label(path, limit: 80)) is not part of the document as HeadScan writes it for research")
        }
        guard let kept = try? JSONDecoder().decode(JSONValue.self, from: document.kept) else { throw refuse(name, "it cannot be checked") }
        if ResearchCalendar.preciseDate(in: value) != nil || ResearchCalendar.preciseDate(in: kept) != nil {
            throw refuse(name, "it holds a date that is not the start of its week; upload with the HeadScan client, which coarsens dates")
        }
        return (document.kept, document.values)
    }

    /// A document decoded as its type: its encoding as decoded (to find fields its type lacks)
    /// and as kept (free text replaced by what the service knows, references to other files
    /// and times removed).
    struct CanonicalDocument {
        var typed: Data
        var kept: Data
        var values = SessionValues()
    }

    /// `session` (the upload's name, when known) binds the documents to it: the patient's
    /// pseudonym is the name's, and consent was given no earlier than the scan's week.
    static func canonical(_ name: String, data: Data, session: SessionName? = nil) throws -> CanonicalDocument {
        switch name {
        case ConsentRecord.fileName:
            var consent = try ConsentRecord.decode(from: data)
            guard consent.researchUse else {
                throw APIError(.unprocessableContent, "the parent did not agree to research use of this session; it is not accepted")
            }
            if let week = session.flatMap({ $0.date(in: TimeZone(identifier: "UTC") ?? .current) }),
                consent.decidedAt < ResearchCalendar.weekStart(week)
            {
                throw refuse(name, "it was recorded before the scan's week, so it is not this session's consent")
            }
            let typed = try consent.encodedAlone()
            consent.recordedBy = ResearchVocabulary.consentRecorders.contains(consent.recordedBy) ? consent.recordedBy : "unknown"
            return CanonicalDocument(typed: typed, kept: try consent.encodedAlone())
        case PatientRecord.fileName:
            let record: ResearchPatientRecord
            do {
                record = try ResearchPatientRecord.decode(from: data)
            } catch {
                throw refuse(
                    name,
                    "it is not pseudonymised (\(Self.reason(error))); upload with the HeadScan client, which replaces the patient ID and birth date on the device"
                )
            }
            if let session, String(record.patientID) != session.id {
                throw refuse(name, "its pseudonym is not the one in the session's name; upload with the HeadScan client")
            }
            let bytes = try record.encodedAlone()
            return CanonicalDocument(typed: bytes, kept: bytes)
        case RatingRecord.fileName:
            let rating = try RatingRecord.decode(from: data)
            guard rating.behaviourNote == nil else {
                throw refuse(name, "it holds the typed note on the child's behaviour, which stays on the device; upload with the HeadScan client")
            }
            let bytes = try rating.encodedAlone()
            var values = SessionValues()
            values.rating = rating.scanQuality
            return CanonicalDocument(typed: bytes, kept: bytes, values: values)
        case AnnotationsRecord.fileName:
            let bytes = try AnnotationsRecord.decode(from: data).encodedAlone()
            return CanonicalDocument(typed: bytes, kept: bytes)
        case MeasurementRecord.fileName:
            var record = try MeasurementRecord.decode(from: data)
            if let problem = implausible(record.measurement) { throw refuse(name, problem) }
            guard record.meshFile == nil || record.meshFile == ScanSession.meshFileName else {
                throw refuse(name, "meshFile must be \(ScanSession.meshFileName), the session's own mesh")
            }
            let typed = try record.encodedAlone()
            ResearchVocabulary.scrub(&record)
            return CanonicalDocument(typed: typed, kept: try record.encodedAlone(), values: UploadService.values(record))
        case ReconstructionRecord.fileName:
            var record = try ReconstructionRecord.decode(from: data)
            guard ResearchCalendar.isWeekStart(Date(timeIntervalSince1970: record.scan.modified)) else {
                throw refuse(name, "scan.modified is a clock time; upload with the HeadScan client, which coarsens it")
            }
            let typed = try record.encodedAlone()
            ResearchVocabulary.scrub(&record)
            return CanonicalDocument(typed: typed, kept: try record.encodedAlone())
        case ClinicalReportWriter.timelineFileName:
            let timeline = try JSONDecoder().decode(FeedbackTimeline.self, from: data)
            if let problem = ResearchVocabulary.implausible(timeline) { throw refuse(name, problem) }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let bytes = try encoder.encode(timeline)
            return CanonicalDocument(typed: bytes, kept: bytes)
        default:
            throw refuse(name, "this file name is not on the service's list")
        }
    }

    /// Why measured values cannot be real, nil when they can.
    static func implausible(_ m: HeadMeasurement) -> String? {
        let checks: [(String, Double, ClosedRange<Double>)] = [
            ("cvai", m.cvai, 0...100), ("ci", m.ci, 0...200), ("circumferenceMM", m.circumferenceMM, 0...2000),
            ("cvaMM", m.cvaMM, 0...500), ("lengthMM", m.lengthMM, 0...500), ("widthMM", m.widthMM, 0...500),
            ("diagonalAMM", m.diagonalAMM, 0...500), ("diagonalBMM", m.diagonalBMM, 0...500),
        ]
        // The intervals are the device's words about the same values: bounded alike.
        let intervals: [(String, Double, ClosedRange<Double>)] =
            m.intervals.map { i in
                [("cvai", i.cvai, 0...100), ("ci", i.ci, 0...200), ("circumferenceMM", i.circumferenceMM, 0...2000), ("cvaMM", i.cvaMM, 0...500)]
                    .flatMap { name, v, range in [("intervals.\(name).low", v.low, range), ("intervals.\(name).high", v.high, range)] }
            } ?? []
        return (checks + intervals).first { !$0.1.isFinite || !$0.2.contains($0.1) }.map { "\($0.0) \($0.1) lies outside \($0.2)" }
    }

    static func reason(_ error: any Error) -> String {
        if let error = error as? ScanLibraryError, case .invalidDocument(_, let reason) = error { return reason }
        if error is DecodingError { return "a field is missing or has the wrong type" }
        return "\(error)"
    }

    // MARK: mesh

    /// The mesh decoded and written again by HeadScan's writer (binary, one fixed comment,
    /// positions, triangles and vertex colours when it has them): no header line, element or
    /// byte of the upload survives.
    static func checkMesh(_ name: String, at url: URL) throws(APIError) -> [UInt8] {
        guard let data = try? Data(contentsOf: url), data.count <= maximumMeshBytes else { throw refuse(name, "it could not be read back") }
        let mesh: TriangleMesh
        do {
            mesh = try PLY.decode([UInt8](data))
        } catch {
            throw refuse(name, "it is not a readable mesh (\(error.description))")
        }
        guard !mesh.vertices.isEmpty, !mesh.faces.isEmpty else { throw refuse(name, "it holds no triangles") }
        guard mesh.vertices.allSatisfy({ abs($0.x) < 10 && abs($0.y) < 10 && abs($0.z) < 10 }) else {
            throw refuse(name, "a vertex lies more than 10 m from the origin (or is not a number); a head mesh is in metres")
        }
        return PLY.encode(mesh, comment: meshComment)
    }
}
