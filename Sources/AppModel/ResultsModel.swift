import AppSupport
import Cephalometry
import Foundation
import Geometry
import Observation
import Processing
import Report
import ReportKit
import ScanLibrary

/// Where the results screen is.
public enum ResultsPhase: Sendable, Equatable {
    /// Not measured yet; the button starts processing.
    case ready
    /// Processing: the stage's name and the share done of the whole (0...1).
    case processing(stage: String, fraction: Double)
    case measured
    /// Processing failed or was cancelled, with the reason; the button tries again.
    case failed(String)
    /// The cap stood off the skin (hair under it): what was found and what to do; the
    /// button measures anyway.
    case capLifted(String)
}

/// One row of the values: the 3D value, and the calliper's when entered.
public struct ResultRow: Sendable, Equatable, Identifiable {
    public var id: String { name }
    public var name: String
    public var value: String
    public var calliper: String?

    public init(name: String, value: String, calliper: String?) {
        self.name = name
        self.value = value
        self.calliper = calliper
    }
}

/// One visit in the trend list.
public struct TrendRow: Sendable, Equatable, Identifiable {
    public var id: String { session }
    public var session: String
    public var date: String
    public var age: String?
    public var cvai: String
    public var isThisVisit: Bool
}

/// The results screen: processes the session (with progress and cancellation) unless it is
/// measured, then shows the values, the severity, the calliper comparison, the patient's
/// trend and the report to share.
@MainActor @Observable
public final class ResultsModel {
    public private(set) var phase = ResultsPhase.ready
    /// The values, when measured.
    public private(set) var rows: [ResultRow] = []
    /// "CHOA level 3: moderate …", when measured.
    public private(set) var severity: String?
    /// The CHOA level (1–5) for the badge's colour.
    public private(set) var severityLevel: Int?
    /// Whether calliper and 3D agree on the level, in words.
    public private(set) var calliperVerdict: String?
    /// The patient's measured visits, oldest first.
    public private(set) var trend: [TrendRow] = []
    /// Remarks on the landmarks (a landmark whose picks disagree), and measurement warnings.
    public private(set) var notes: [String] = []
    /// The PDF report to share, when written.
    public private(set) var reportURL: URL?
    /// Volumes, symmetry ratios, height and ear offset, when measured with them.
    public private(set) var shapeRows: [ResultRow] = []
    /// The deformity type and severity in words, under the clinic's thresholds.
    public private(set) var deformity: String?
    /// Whether the shape suggests that a specialist should see the head.
    public private(set) var needsSpecialist = false
    /// The asymmetry map from above and behind, once computed from the head mesh.
    public private(set) var asymmetry: Drawing?
    /// How the key measures change per month over the patient's visits (two or more).
    public private(set) var trendChanges: [String] = []

    @ObservationIgnored public let session: ScanSession
    @ObservationIgnored private let library: ScanLibrary
    @ObservationIgnored private let processing: any SessionProcessing
    @ObservationIgnored private let strings: Strings
    @ObservationIgnored private let cancelFlag = CancelFlag()
    @ObservationIgnored private let activity: any ProcessingActivity
    @ObservationIgnored private let jobs: ProcessingJobs

    /// The results of `session`; shows a stored measurement at once. `jobs` is shared by
    /// every results screen so that a session is measured by one job at a time.
    public init(
        session: ScanSession, library: ScanLibrary, processing: any SessionProcessing, strings: Strings,
        activity: any ProcessingActivity = NoProcessingActivity(), jobs: ProcessingJobs = ProcessingJobs()
    ) {
        self.session = session
        self.library = library
        self.processing = processing
        self.strings = strings
        self.activity = activity
        self.jobs = jobs
        loadStored()
    }

    /// What the measurement is and is not, shown under the results: it supports a clinician's
    /// examination and diagnoses nothing.
    public var disclaimer: String { strings(.resultsDisclaimer) }

    /// The main button's label: measure, cancel, or try again.
    public var buttonTitle: String {
        switch phase {
        case .ready: strings(.resultsMeasure)
        case .processing: strings(.commonCancel)
        case .measured: strings(.resultsMeasureAgain)
        case .failed: strings(.resultsRetry)
        case .capLifted: strings(.resultsMeasureOverHair)
        }
    }

    /// The main button: start, cancel, start again, or measure over a lifted cap.
    public func buttonTapped() async {
        if case .processing = phase { return cancel() }
        if case .capLifted = phase { return await process(overLiftedCap: true) }
        await process()
    }

    /// Processes the session; the screen shows the stages as they go. `overLiftedCap`
    /// measures a scan whose cap stood off the skin, with a warning, instead of refusing it.
    public func process(overLiftedCap: Bool = false) async {
        if case .processing = phase { return }
        guard jobs.begin(session.name.rawValue) else {
            phase = .failed(strings(.resultsStillStopping))
            return
        }
        activity.begin()
        defer {
            activity.end()
            jobs.end(session.name.rawValue)
        }
        cancelFlag.reset()
        phase = .processing(stage: strings(.resultsStageStarting), fraction: 0)
        let flag = cancelFlag
        do {
            let result = try await processing.process(
                session, overLiftedCap: overLiftedCap,
                progress: { [weak self] p in
                    Task { @MainActor in self?.show(p) }
                }, isCancelled: { flag.isSet })
            show(result.measurement, calliper: result.calliper, estimates: result.estimates, report: result.pdf)
            asymmetry = nil
            await loadAsymmetry()
        } catch ProcessingError.cancelled {
            phase = .failed(strings(.resultsCancelled))
        } catch ProcessingError.capLifted(let standOff) {
            phase = .capLifted(
                strings(.resultsCapLifted, strings.decimal(standOff.largest * 1000), strings(Self.placeKey(standOff.sector))))
        } catch {
            phase = .failed(error.localizedDescription)
        }
    }

    /// The words for an eighth of the way around the head.
    public static func placeKey(_ sector: CapStandOff.Sector) -> StringKey {
        switch sector {
        case .back: .capPlaceBack
        case .backLeft: .capPlaceBackLeft
        case .left: .capPlaceLeft
        case .frontLeft: .capPlaceFrontLeft
        case .front: .capPlaceFront
        case .frontRight: .capPlaceFrontRight
        case .right: .capPlaceRight
        case .backRight: .capPlaceBackRight
        }
    }

    /// Asks processing to stop; the session stays as it was.
    public func cancel() { cancelFlag.set() }

    /// The screen closes: a running measurement stops (nobody is waiting for it).
    public func close() { cancel() }

    private func show(_ progress: ProcessingProgress) {
        guard case .processing = phase else { return }
        phase = .processing(stage: stageName(progress.stage), fraction: Self.fraction(progress))
    }

    /// The share of the whole job done: the marker pass is most of it.
    public static func fraction(_ p: ProcessingProgress) -> Double {
        let stages: [(ProcessingStage, Double)] = [
            (.markers, 0.6), (.bundleAdjustment, 0.05), (.fusion, 0.2), (.meshing, 0.05),
            (.landmarks, 0.05), (.measuring, 0.025), (.report, 0.025),
        ]
        guard let index = stages.firstIndex(where: { $0.0 == p.stage }) else { return 0 }
        let before = stages[..<index].reduce(0) { $0 + $1.1 }
        let within = p.total > 0 ? min(1, Double(p.done) / Double(p.total)) : 0
        return before + stages[index].1 * within
    }

    private func stageName(_ stage: ProcessingStage) -> String {
        switch stage {
        case .markers: strings(.resultsStageMarkers)
        case .bundleAdjustment, .fusion, .meshing: strings(.resultsStageSurface)
        case .landmarks: strings(.resultsStageLandmarks)
        case .measuring, .report: strings(.resultsStageReport)
        }
    }

    private func loadStored() {
        do {
            guard let record = try library.measurement(in: session) else { return }
            let report = session.url.appendingPathComponent(ClinicalReportWriter.pdfFileName)
            show(
                record.measurement, calliper: record.calliper, estimates: record.landmarkEstimates ?? [:],
                report: FileManager.default.fileExists(atPath: report.path) ? report : nil)
        } catch {
            phase = .failed(strings.message(error))
        }
    }

    private func show(_ m: HeadMeasurement, calliper: CalliperComparison?, estimates: [Landmark: LandmarkEstimate], report: URL?) {
        let c = calliper?.calliper
        func mm(_ v: Double?) -> String? { v.map { strings.decimal($0) + " mm" } }
        rows = [
            ResultRow(
                name: "CVAI", value: strings.decimal(m.cvai, digits: 2) + " %",
                calliper: calliper.map { strings.decimal($0.calliperCVAI, digits: 2) + " %" }),
            m.intervals.map {
                ResultRow(
                    name: strings(.resultsCVAIInterval),
                    value: strings.decimal($0.cvai.low, digits: 2) + "–" + strings.decimal($0.cvai.high, digits: 2) + " %", calliper: nil)
            },
            ResultRow(name: "CVA", value: mm(m.cvaMM)!, calliper: mm(c?.cvaMM)),
            ResultRow(name: strings(.resultsDiagonalA), value: mm(m.diagonalAMM)!, calliper: mm(c?.diagonalAMM)),
            ResultRow(name: strings(.resultsDiagonalB), value: mm(m.diagonalBMM)!, calliper: mm(c?.diagonalBMM)),
            ResultRow(name: strings(.resultsCranialIndex), value: strings.decimal(m.ci), calliper: calliper.map { strings.decimal($0.calliperCI) }),
            ResultRow(name: strings(.resultsCircumference), value: mm(m.circumferenceMM)!, calliper: mm(c?.circumferenceMM ?? nil)),
        ].compactMap { $0 }
        severityLevel = m.severityLevel.rawValue
        severity = strings(.resultsSeverity, String(m.severityLevel.rawValue), strings(.resultsFlattened, m.flattenedSide.rawValue))
        calliperVerdict = calliper.map {
            $0.severityAgrees ? strings(.resultsCalliperAgrees) : strings(.resultsCalliperDiffers, String($0.calliperSeverityLevel.rawValue))
        }
        notes =
            Landmark.allCases.compactMap { l in
                estimates[l].flatMap { $0.isDoubtful ? strings(.resultsPicksDisagree, strings.landmarkName(l), strings.decimal($0.spreadMM)) : nil }
            } + m.warnings.map(\.message)
        reportURL = report
        trend = loadTrend()
        trendChanges = loadTrendChanges()
        showShape(m)
        phase = .measured
    }

    private func showShape(_ m: HeadMeasurement) {
        let thresholds = (try? ClinicalReportWriter(library: library, session: session).reportSettings().thresholds) ?? ShapeThresholds()
        let assessment = ShapeAssessment(m, thresholds: thresholds)
        let grade = assessment.brachycephaly.map { strings(Self.gradeKeys[$0] ?? .resultsBrachyMild) } ?? ""
        deformity = strings(Self.typeKeys[assessment.type] ?? .resultsTypeNormal, grade)
        needsSpecialist = !assessment.specialistReasons.isEmpty
        guard let shape = m.shape else {
            shapeRows = []
            return
        }
        let percent = { (v: Double) in self.strings.decimal(v) + " %" }
        shapeRows = [
            ResultRow(name: strings(.resultsVolume), value: strings.decimal(shape.cranialVolumeCM3, digits: 0) + " cm³", calliper: nil),
            ResultRow(name: strings(.resultsPosteriorSymmetry), value: percent(shape.posteriorSymmetryRatio), calliper: nil),
            ResultRow(name: strings(.resultsAnteriorSymmetry), value: percent(shape.anteriorSymmetryRatio), calliper: nil),
            ResultRow(name: strings(.resultsOverallSymmetry), value: percent(shape.overallSymmetryRatio), calliper: nil),
            ResultRow(name: strings(.resultsRadialSymmetry), value: strings.decimal(shape.radialSymmetryIndexMM) + " mm", calliper: nil),
            ResultRow(name: strings(.resultsCranialHeight), value: strings.decimal(shape.cranialHeightMM) + " mm", calliper: nil),
            ResultRow(name: strings(.resultsEarOffset), value: strings.decimal(shape.earOffsetMM) + " mm", calliper: nil),
        ]
    }

    static let typeKeys: [HeadShapeClass: StringKey] = [
        .normal: .resultsTypeNormal, .plagiocephaly: .resultsTypePlagiocephaly, .brachycephaly: .resultsTypeBrachycephaly,
        .dolichocephaly: .resultsTypeDolichocephaly, .plagiocephalyWithBrachycephaly: .resultsTypePlagioBrachy,
        .plagiocephalyWithDolichocephaly: .resultsTypePlagioDolicho,
    ]
    static let gradeKeys: [BrachycephalySeverity: StringKey] = [
        .mild: .resultsBrachyMild, .moderate: .resultsBrachyModerate, .severe: .resultsBrachySevere,
    ]

    /// Computes the asymmetry map from the session's head mesh away from the main actor (about
    /// a second on a phone); nothing when the session has no mesh or is not measured.
    public func loadAsymmetry() async {
        guard asymmetry == nil, let record = try? library.measurement(in: session) else { return }
        let url = session.meshURL, landmarks = record.landmarks
        let labels = AsymmetryDrawing.Labels(
            above: strings(.resultsMapAbove), behind: strings(.resultsMapBehind), left: strings(.diagramLeft), right: strings(.diagramRight),
            flatter: strings(.resultsMapFlatter), fuller: strings(.resultsMapFuller))
        asymmetry = await Task.detached(priority: .userInitiated) { () -> Drawing? in
            guard let data = try? Data(contentsOf: url), let mesh = try? PLY.decode([UInt8](data)),
                let map = try? AsymmetryMap.compute(mesh, landmarks: landmarks)
            else { return nil }
            return AsymmetryDrawing.make(map, labels: labels)
        }.value
    }

    private func loadTrendChanges() -> [String] {
        guard let patient = try? library.patient(in: session), let visits = try? library.visits(ofPatient: patient.patientID),
            let trend = try? VisitTrend(visits.compactMap { v in v.measurement.map { Visit(date: v.date, measurement: $0) } }),
            let month = trend.perMonth
        else { return [] }
        let measures: [(String, String, String)] = [
            ("cvai", "CVAI", " %"), ("ci", strings(.resultsCranialIndex), ""), ("circumferenceMM", strings(.resultsCircumference), " mm"),
            ("posteriorSymmetryRatio", strings(.resultsPosteriorSymmetry), " %"), ("cranialVolumeCM3", strings(.resultsVolume), " cm³"),
        ]
        return measures.compactMap { key, name, unit in
            month[key].map { strings(.resultsPerMonth, name, (($0 >= 0 ? "+" : "") + strings.decimal($0, digits: 2)) + unit) }
        }
    }

    private func loadTrend() -> [TrendRow] {
        guard let patient = try? library.patient(in: session), let visits = try? library.visits(ofPatient: patient.patientID) else { return [] }
        return visits.compactMap { v in
            v.measurement.map {
                TrendRow(
                    session: v.session.name.rawValue, date: strings.date(v.date),
                    age: v.ageWeeks.map { strings(.resultsAgeWeeks, strings.decimal($0, digits: 0)) },
                    cvai: strings.decimal($0.cvai, digits: 2) + " %", isThisVisit: v.session.name == session.name)
            }
        }
    }
}

/// A flag the processing task reads while the main actor sets it.
final class CancelFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    func set() {
        lock.lock()
        value = true
        lock.unlock()
    }

    func reset() {
        lock.lock()
        value = false
        lock.unlock()
    }
}
