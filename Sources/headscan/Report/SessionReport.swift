import ArgumentParser
import Cephalometry
import Feedback
import Foundation
import Geometry
import Recording
import Report
import ScanLibrary
import Simulation

/// Builds the report of one measured session from what the library holds: the mesh and
/// landmarks are measured again exactly as `headscan measure` does, so the report's values
/// are those of `measure --json` for the same files.
struct ClinicalReportFiles {
    /// Files written beside the session's other files.
    static let htmlFileName = "report.html", pdfFileName = "report.pdf"
    /// The feedback timeline the demo keeps with its scan.
    static let timelineFileName = "feedback.json"
    /// Ground truth kept with simulated scans.
    static let truthFileName = "truth.json"

    let library: ScanLibrary
    let session: ScanSession

    /// The session folder at `url`, in the library that holds it.
    init(sessionFolder url: URL) throws {
        let folder = url.standardizedFileURL
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw ValidationError("\(folder.path) is not a folder; give a session folder of a scan library")
        }
        library = ScanLibrary(root: folder.deletingLastPathComponent())
        do {
            session = try library.session(named: folder.lastPathComponent)
        } catch {
            if let sessions = try? ScanLibrary(root: folder).list().entries, !sessions.isEmpty {
                throw ValidationError("\(folder.path) is a scan library; give one of its session folders (`headscan library list --root \(folder.path)`)")
            }
            throw ValidationError("\(folder.path) is not a scan session folder: \(error)")
        }
    }

    init(library: ScanLibrary, session: ScanSession) {
        self.library = library
        self.session = session
    }

    /// The report's content; `notes` are added to the ones found in the session.
    func content(notes extra: [String] = []) throws -> (report: ClinicalReport, slice: MeasuredSlice) {
        guard let record = try library.measurement(in: session) else {
            throw ValidationError("\(session.name) is not measured yet: it has no \(MeasurementRecord.fileName); reconstruct and measure it first (see `headscan demo`)")
        }
        let meshURL = session.url.appendingPathComponent(record.meshFile ?? ScanSession.meshFileName)
        let mesh = try PLY.decode([UInt8](Data(contentsOf: meshURL)))
        let slice = try Cephalometer.measure(mesh, landmarks: record.landmarks)
        let patient = try library.patient(in: session)
        let truth = try optionalJSON(ScanTruth.self, Self.truthFileName)
        var notes = extra
        if truth != nil {
            notes.append("Simulated scan: the truth column is the simulated head's exact geometry.")
        }
        let inputs = ReportInputs(
            patient: patientFacts(patient),
            scan: try scanFacts(),
            slice: slice,
            calliper: patient?.calliper,
            reference: truth.map { Self.reference($0.measurements) },
            timeline: try optionalJSON(FeedbackTimeline.self, Self.timelineFileName),
            meshFile: meshURL.lastPathComponent,
            notes: notes)
        return (ClinicalReport(inputs), slice)
    }

    /// Writes `report.html` and `report.pdf` into `folder` (the session by default).
    func write(to folder: URL? = nil, notes: [String] = []) throws -> (html: URL, pdf: URL, slice: MeasuredSlice) {
        let (report, slice) = try content(notes: notes)
        let target = folder ?? session.url
        let html = target.appendingPathComponent(Self.htmlFileName)
        let pdf = target.appendingPathComponent(Self.pdfFileName)
        try Data(HTMLReport.render(report).utf8).write(to: html, options: .atomic)
        try Data(PDFReport.render(report, creationDate: Self.pdfDate(Date()))).write(to: pdf, options: .atomic)
        return (html, pdf, slice)
    }

    private func patientFacts(_ patient: PatientRecord?) -> [ReportFact] {
        var facts = [ReportFact("Patient ID", patient.map { String($0.patientID) } ?? "not entered")]
        facts.append(ReportFact("Session", session.name.rawValue))
        if let patient {
            facts.append(ReportFact("Data entered", Self.display(patient.enteredAt)))
        }
        return facts
    }

    private func scanFacts() throws -> [ReportFact] {
        let reader = try ScanReader(url: session.scanURL)
        let header = reader.header
        var facts = [
            ReportFact("File", ScanSession.scanFileName),
            ReportFact("Recorded", Self.display(header.createdAt)),
            ReportFact("Device", header.device),
            ReportFact("Frames", "\(reader.frameCount) (\(ClinicalReport.format(reader.durationSeconds)) s)"),
        ]
        if let scenario = header.metadata["scenario"] { facts.append(ReportFact("Scenario", scenario)) }
        return facts
    }

    private func optionalJSON<T: Decodable>(_ type: T.Type, _ name: String) throws -> T? {
        let url = session.url.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            return try JSONDecoder().decode(type, from: Data(contentsOf: url))
        } catch {
            throw ValidationError("\(url.path) cannot be read: \(error)")
        }
    }

    static func reference(_ m: HeadMeasurements) -> ReferenceValues {
        ReferenceValues(
            label: "Truth (simulation)", cvai: m.cvai, cvaMM: m.cvaMM, diagonalAMM: m.diagonalAMM, diagonalBMM: m.diagonalBMM,
            lengthMM: m.lengthMM, widthMM: m.widthMM, ci: m.ci, circumferenceMM: m.circumferenceMM)
    }

    private static func display(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_GB")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }

    private static func pdfDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "'D:'yyyyMMddHHmmss'Z'"
        return formatter.string(from: date)
    }
}
