import Cephalometry
import Feedback
import Foundation
import Geometry
import Processing
import Recording
import ScanLibrary
import Upload

/// Checks every file of an upload before anything is stored for good: only the files research
/// may have (see `ResearchFiles`), each JSON document exactly its type's shape (no field its
/// type lacks, no free text, every date a week's start, every number in range), the mesh's
/// header only what HeadScan writes, the recording's header without clock time or notes.
/// Every refusal is a 422 that names the file and what to do; nothing of the content is logged.
enum UploadInspector {
    /// The comment lines HeadScan's mesh writers put in a PLY header.
    static let meshComments: Set<String> = [
        "HeadScan reconstruction, metres, frame of the scan's first keyframe", "HeadScan simulated head, metres, head frame",
        "HeadScan reconstruction, metres",
    ]
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
                    "the file \(file.name.prefix(100)) is not accepted: a session for research holds only \(ResearchFiles.accepted.keys.sorted().joined(separator: ", ")); upload with the HeadScan client, which leaves the rest on the device")
            }
            let limit = rule.kind == .mesh ? min(rule.maximumBytes, Int64(maximumMeshBytes)) : rule.maximumBytes
            guard file.size <= limit else {
                throw APIError(.contentTooLarge, "\(file.name) is larger than the \(limit) bytes the service accepts for it")
            }
        }
    }

    /// Checks one assembled file at `url`.
    static func check(_ name: String, at url: URL) throws(APIError) {
        guard let kind = ResearchFiles.accepted[name]?.kind else { throw refuse(name, "this file name is not on the service's list") }
        switch kind {
        case .document: try checkDocument(name, at: url)
        case .mesh: try checkMesh(name, at: url)
        case .scan: try checkScan(name, at: url)
        }
    }

    // MARK: documents

    static func checkDocument(_ name: String, at url: URL) throws(APIError) {
        guard let data = try? Data(contentsOf: url) else { throw refuse(name, "it could not be read back") }
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: data), case .object = value else {
            throw refuse(name, "it is not a JSON object")
        }
        let canonical: Data
        do {
            canonical = try canonicalBytes(name, data: data, value: value)
        } catch let error as APIError {
            throw error
        } catch {
            throw refuse(name, "it does not match its type (\(Self.reason(error)))")
        }
        guard let expected = try? JSONDecoder().decode(JSONValue.self, from: canonical) else { throw refuse(name, "it cannot be checked") }
        if let path = expected.firstDifference(from: value) {
            throw refuse(name, "the field \(path.prefix(80)) is not part of the document as HeadScan writes it for research")
        }
        if ResearchCalendar.preciseDate(in: value) != nil {
            throw refuse(name, "it holds a date that is not the start of its week; upload with the HeadScan client, which coarsens dates")
        }
    }

    /// The document decoded as its type, checked, and encoded again: equal to the upload only
    /// when the upload holds nothing its type lacks.
    static func canonicalBytes(_ name: String, data: Data, value: JSONValue) throws -> Data {
        switch name {
        case ConsentRecord.fileName:
            let consent = try ConsentRecord.decode(from: data)
            guard consent.researchUse else {
                throw APIError(.unprocessableContent, "the parent did not agree to research use of this session; it is not accepted")
            }
            guard consent.recordedBy.count <= ResearchFiles.maximumLabelLength else { throw refuse(name, "recordedBy is too long") }
            return try consent.encodedAlone()
        case PatientRecord.fileName:
            do {
                return try ResearchPatientRecord.decode(from: data).encodedAlone()
            } catch {
                throw refuse(name, "it is not pseudonymised (\(Self.reason(error))); upload with the HeadScan client, which replaces the patient ID and birth date on the device")
            }
        case RatingRecord.fileName:
            return try RatingRecord.decode(from: data).encodedAlone()
        case AnnotationsRecord.fileName:
            return try AnnotationsRecord.decode(from: data).encodedAlone()
        case MeasurementRecord.fileName:
            let record = try MeasurementRecord.decode(from: data)
            if let problem = implausible(record.measurement) { throw refuse(name, problem) }
            return try record.encodedAlone()
        case ReconstructionRecord.fileName:
            let record = try ReconstructionRecord.decode(from: data)
            guard ResearchCalendar.isWeekStart(Date(timeIntervalSince1970: record.scan.modified)) else {
                throw refuse(name, "scan.modified is a clock time; upload with the HeadScan client, which coarsens it")
            }
            return try record.encodedAlone()
        case ClinicalReportWriter.timelineFileName:
            let timeline = try JSONDecoder().decode(FeedbackTimeline.self, from: data)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return try encoder.encode(timeline)
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
        return checks.first { !$0.1.isFinite || !$0.2.contains($0.1) }.map { "\($0.0) \($0.1) lies outside \($0.2)" }
    }

    static func reason(_ error: any Error) -> String {
        if let error = error as? ScanLibraryError, case .invalidDocument(_, let reason) = error { return reason }
        if error is DecodingError { return "a field is missing or has the wrong type" }
        return "\(error)"
    }

    // MARK: mesh and recording

    static func checkMesh(_ name: String, at url: URL) throws(APIError) {
        guard let data = try? Data(contentsOf: url), data.count <= maximumMeshBytes else { throw refuse(name, "it could not be read back") }
        guard let end = data.range(of: Data("end_header\n".utf8), in: 0..<min(data.count, 8192)) else {
            throw refuse(name, "it has no PLY header")
        }
        let header = String(decoding: data[..<end.lowerBound], as: UTF8.self)
        for line in header.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            let words = line.split(separator: " ")
            switch words.first {
            case "ply", "format", "element", "property": continue
            case "comment" where meshComments.contains(String(line.dropFirst("comment ".count))): continue
            default: throw refuse(name, "its header holds a line HeadScan does not write (comments and other text stay on the device)")
            }
        }
        do {
            _ = try PLY.decode([UInt8](data))
        } catch {
            throw refuse(name, "it is not a readable mesh (\(error))")
        }
    }

    static func checkScan(_ name: String, at url: URL) throws(APIError) {
        let header: ScanHeader
        do {
            header = try ScanReader(url: url).header
        } catch {
            throw refuse(name, "it is not a readable recording (\(error))")
        }
        guard ResearchCalendar.isWeekStart(header.createdAt) else {
            throw refuse(name, "its header holds the clock time of the recording; upload with the HeadScan client, which coarsens it")
        }
        let labels = [header.device, header.appVersion] + header.metadata.values
        guard header.metadata.keys.allSatisfy(ResearchFiles.scanMetadataKeys.contains),
            labels.allSatisfy({ $0.count <= ResearchFiles.maximumLabelLength })
        else {
            throw refuse(name, "its header holds notes or labels that stay on the device; upload with the HeadScan client")
        }
    }
}
