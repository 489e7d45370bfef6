import Cephalometry
import Feedback
import Foundation
import Geometry
import Reconstruction
import Recording
import Report
import ReportKit
import ScanLibrary

/// The clinical report of one measured session: a function of the measured session it is
/// given (processing hands on what it measured; everyone else loads it, see `MeasuredSession`),
/// the clinic's report settings and the patient's earlier measured visits, which give the trend.
public struct ClinicalReportWriter {
    /// Files written beside the session's other files.
    public static let htmlFileName = "report.html", pdfFileName = "report.pdf"
    /// The head coloured by its asymmetry map, beside the report.
    public static let asymmetryFileName = ScanSession.asymmetryFileName
    /// The feedback timeline kept with a scan.
    public static let timelineFileName = "feedback.json"

    public let library: ScanLibrary
    public let session: ScanSession

    /// The report of `session` in `library`.
    public init(library: ScanLibrary, session: ScanSession) {
        self.library = library
        self.session = session
    }

    /// The report's content; `reference` adds a column (such as a simulation's truth) and
    /// `notes` are added to the ones the session gives.
    public func content(
        _ measured: MeasuredSession, reference: ReferenceValues? = nil, notes extra: [String] = []
    ) throws
        -> (report: ClinicalReport, slice: MeasuredSlice, mesh: TriangleMesh, asymmetry: AsymmetryMap?)
    {
        let (record, mesh, slice) = (measured.record, measured.mesh, measured.slice)
        let settings = try reportSettings()
        var mapNotes: [String] = []
        var asymmetry: AsymmetryMap?
        if settings.asymmetryMap {
            do {
                asymmetry = try AsymmetryMap.compute(mesh, landmarks: record.landmarks)
            } catch {
                mapNotes.append("Asymmetry map not drawn: \(error.description)")
            }
        }
        let patient = try library.patient(in: session)
        let inputs = ReportInputs(
            patient: try patientFacts(patient),
            scan: try scanFacts(),
            slice: slice,
            calliper: patient?.calliper,
            reference: reference,
            timeline: try optionalJSON(FeedbackTimeline.self, Self.timelineFileName),
            meshFile: session.meshURL.lastPathComponent,
            notes: Self.landmarkNotes(record) + cameraNotes() + mapNotes + extra,
            visits: try visits(patient, current: slice.measurement, by: settings.convention),
            asymmetry: asymmetry, settings: settings)
        return (ClinicalReport(inputs), slice, mesh, asymmetry)
    }

    /// The clinic's report settings from the library's folder, or the defaults.
    public func reportSettings() throws -> ReportSettings {
        let url = library.root.appendingPathComponent(ReportSettings.fileName)
        guard FileManager.default.fileExists(atPath: url.path) else { return ReportSettings() }
        do {
            return try ReportSettings.decode(json: Data(contentsOf: url))
        } catch let error as ReportSettingsError {
            throw ProcessingReportError.unreadable(url.path, error.description)
        }
    }

    /// Writes `report.html` and `report.pdf` into `folder` (the session by default) for
    /// `measured`, loaded from the session when not given.
    @discardableResult
    public func write(
        _ measured: MeasuredSession? = nil, to folder: URL? = nil, reference: ReferenceValues? = nil, notes: [String] = [],
        now: Date = Date()
    ) throws
        -> (html: URL, pdf: URL, slice: MeasuredSlice, assessment: ShapeAssessment, asymmetry: AsymmetrySummary?)
    {
        let measured = try measured ?? MeasuredSession.load(library: library, session: session)
        let (report, slice, mesh, asymmetry) = try content(measured, reference: reference, notes: notes)
        let target = folder ?? session.url
        let html = target.appendingPathComponent(Self.htmlFileName)
        let pdf = target.appendingPathComponent(Self.pdfFileName)
        try Data(HTMLReport.render(report).utf8).write(to: html, options: .atomic)
        try Data(PDFReport.render(report, creationDate: Self.pdfDate(now))).write(to: pdf, options: .atomic)
        if let asymmetry {
            let colored = PLY.encode(
                asymmetry.colored(mesh), comment: "HeadScan asymmetry map: blue flatter, red fuller than the mirror image, saturating at 5 mm")
            try Data(colored).write(to: target.appendingPathComponent(Self.asymmetryFileName), options: .atomic)
        }
        return (html, pdf, slice, report.assessment, asymmetry?.summary)
    }

    /// A warning when the reconstruction found the camera's focal length more than 1 % from
    /// the factory value the phone recorded, or would have but the recording's depth and
    /// colour disagreed; and when the phone's depth was more than 1 % off the stickers' printed
    /// size, or the print could not set the scan's scale. A scale within 1 % is the phone
    /// working as it should and stays in the reconstruction's record, off the clinician's page.
    func cameraNotes() -> [String] {
        guard let record = try? library.document(ReconstructionRecord.self, in: session) else { return [] }
        return Self.cameraNotes(record.statistics)
    }

    static func cameraNotes(_ statistics: ReconstructionStatistics) -> [String] {
        focalNotes(statistics) + scaleNotes(statistics)
    }

    private static func scaleNotes(_ statistics: ReconstructionStatistics) -> [String] {
        guard let scale = statistics.printedScale, scale.refused != nil || abs(scale.ratio - 1) > Self.scaleWarning
        else { return [] }
        return ["Scale: " + scale.sentence]
    }

    private static func focalNotes(_ statistics: ReconstructionStatistics) -> [String] {
        if let refused = statistics.focalCorrectionRefused {
            return [
                "Camera: the scan's own estimate of the focal length was not used: \(refused). "
                    + "Sizes rest on the phone's factory calibration; have the phone checked with a printed board (headscan check-phone)."
            ]
        }
        guard let scale = statistics.focalScaleApplied, abs(scale - 1) > Self.focalWarning else { return [] }
        let sigma = (statistics.focalScaleSigma ?? 0) * 100
        return [
            String(
                format:
                    "Camera: its focal length came out %+.1f %% (± %.1f %%) from the value the phone records; the scan was measured with the estimate. Have the phone's camera checked (a miscalibrated or repaired camera).",
                (scale - 1) * 100, sigma)
        ]
    }

    /// The focal length's deviation beyond which the report warns.
    public static let focalWarning = 0.01
    /// The depth's deviation from the stickers' printed size beyond which the report says what
    /// set the scale: a phone's depth unit is usually within 1 %.
    public static let scaleWarning = 0.01

    static func landmarkNotes(_ record: MeasurementRecord) -> [String] {
        let found = record.automaticLandmarks
        let lowest = found.map { f in Landmark.allCases.compactMap { f[$0].confidence }.min() ?? 0 }
        if record.landmarksSource == .automatic {
            return [
                String(
                    format:
                        "Landmarks: found automatically on the reconstructed head (the nose, the hollow at the nasion, the notch above each tragus); lowest confidence %.2f of 1. Confirm them in the replay.",
                    lowest ?? 0)
            ]
        }
        guard let estimates = record.landmarkEstimates, !estimates.isEmpty else {
            return ["Landmarks: given as points in 3D."]
        }
        let picks = estimates.values.reduce(0) { $0 + $1.picks }
        let spread = estimates.values.map(\.spreadMM).max() ?? 0
        var notes: [String]
        switch record.landmarksSource {
        case .picks:
            notes = [
                String(
                    format:
                        "Landmarks: picked on the scan's frames (%d picks) and lifted into 3D through each frame's depth and camera pose; picks of one landmark agree within %.1f mm (RMS).",
                    picks, spread)
            ]
        case .picksAndAutomatic:
            let automatic = Landmark.allCases.filter { estimates[$0] == nil }.map(\.rawValue)
            notes = [
                String(
                    format: "Landmarks: %d picks on the scan's frames, lifted into 3D; %@ found automatically on the reconstructed head.", picks,
                    automatic.joined(separator: ", "))
            ]
        default:
            notes = ["Landmarks: given as points in 3D."]
        }
        if found != nil, record.landmarksSource != .points {
            notes.append("HeadScan also found the landmarks on the head itself; a warning names any pick more than 3 mm from them.")
        }
        for landmark in Landmark.allCases {
            guard let e = estimates[landmark] else { continue }
            notes += e.unusable.map { "Set aside: \($0)." }
            guard e.isDoubtful || e.used.count + e.unusable.count < e.picks else { continue }
            notes.append(
                String(
                    format: "Check %@: its %d picks spread %.1f mm%@.", landmark.rawValue, e.picks, e.spreadMM,
                    e.used.count + e.unusable.count < e.picks ? ", \(e.picks - e.used.count - e.unusable.count) set aside as far from the others" : ""
                ))
        }
        return notes
    }

    private func patientFacts(_ patient: PatientRecord?) throws -> [ReportFact] {
        var facts = [ReportFact("Patient ID", patient.map { String($0.patientID) } ?? "not entered")]
        facts.append(ReportFact("Session", session.name.rawValue))
        if let patient {
            facts.append(ReportFact("Data entered", Self.display(patient.enteredAt)))
            if let birth = patient.birthDate { facts.append(ReportFact("Born", ClinicalReport.shortDate(birth))) }
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

    /// The patient's measured visits up to this one, oldest first.
    /// Each by `convention` where its measurement carries it, so the trend compares like with like.
    private func visits(
        _ patient: PatientRecord?, current measured: HeadMeasurement, by convention: SliceConvention
    ) throws
        -> [VisitPoint]
    {
        let current = measured.by(convention)
        guard let patient, let today = session.name.date(in: library.timeZone) else { return [] }
        let earlier = try library.visits(ofPatient: patient.patientID, excluding: session).filter { $0.date < today }
        let birth = earlier.first?.birthDate ?? patient.birthDate
        func age(_ date: Date) -> Double? { birth.map { date.timeIntervalSince($0) / (7 * 24 * 3600) } }
        var points = earlier.compactMap { v in
            v.measurement.map { $0.by(convention) }.map {
                VisitPoint(
                    date: v.date, ageWeeks: age(v.date), cvai: $0.cvai, ci: $0.ci, circumferenceMM: $0.circumferenceMM,
                    severity: $0.severityLevel, isCurrent: false, shape: $0.shape)
            }
        }
        points.append(
            VisitPoint(
                date: today, ageWeeks: age(today), cvai: current.cvai, ci: current.ci, circumferenceMM: current.circumferenceMM,
                severity: current.severityLevel, isCurrent: true, shape: current.shape))
        return points
    }

    private func optionalJSON<T: Decodable>(_ type: T.Type, _ name: String) throws -> T? {
        let url = session.url.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            return try JSONDecoder().decode(type, from: Data(contentsOf: url))
        } catch {
            throw ProcessingReportError.unreadable(url.path, "\(error)")
        }
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

/// Why a report cannot be written.
public enum ProcessingReportError: Error, Equatable, CustomStringConvertible, LocalizedError {
    case notMeasured(String)
    case unreadable(String, String)

    public var description: String {
        switch self {
        case .notMeasured(let name):
            "\(name) is not measured yet: it has no \(MeasurementRecord.fileName); process it first (headscan process SESSION_DIR)"
        case .unreadable(let path, let why): "\(path) cannot be read: \(why)"
        }
    }

    public var errorDescription: String? { description }
}
