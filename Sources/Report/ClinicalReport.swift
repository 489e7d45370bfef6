import Cephalometry
import Feedback
import Foundation
import ReportKit

/// One row of the values table: a measure with its value in each column (nil = not taken).
public struct ReportValueRow: Sendable, Equatable {
    public var name: String
    public var unit: String
    public var values: [String?]
}

/// Values of the same measures from another source, such as the simulator's ground truth.
public struct ReferenceValues: Sendable, Equatable {
    /// The column heading, e.g. "Truth (simulation)".
    public var label: String
    public var cvai, cvaMM, diagonalAMM, diagonalBMM, lengthMM, widthMM, ci, circumferenceMM: Double

    public init(
        label: String, cvai: Double, cvaMM: Double, diagonalAMM: Double, diagonalBMM: Double,
        lengthMM: Double, widthMM: Double, ci: Double, circumferenceMM: Double
    ) {
        self.label = label
        self.cvai = cvai
        self.cvaMM = cvaMM
        self.diagonalAMM = diagonalAMM
        self.diagonalBMM = diagonalBMM
        self.lengthMM = lengthMM
        self.widthMM = widthMM
        self.ci = ci
        self.circumferenceMM = circumferenceMM
    }
}

/// Everything a report is made from.
public struct ReportInputs: Sendable {
    /// Patient facts in display order (ID, session, calliper date, ...).
    public var patient: [ReportFact]
    /// Scan facts in display order (file, frames, duration, ...).
    public var scan: [ReportFact]
    /// The measured slice: values and outline.
    public var slice: MeasuredSlice
    /// Hand measurements, when taken.
    public var calliper: CalliperMeasurements?
    /// Another source's values, when known.
    public var reference: ReferenceValues?
    /// The scan's feedback timeline, when kept.
    public var timeline: FeedbackTimeline?
    /// The mesh file's name, relative to the report.
    public var meshFile: String
    /// Remarks shown under the values, e.g. where the landmarks came from.
    public var notes: [String]
    /// Every measured visit of the patient, this one included, oldest first.
    public var visits: [VisitPoint]
    /// The head against its mirror image, when computed.
    public var asymmetry: AsymmetryMap?
    /// What the report shows and the thresholds it grades by.
    public var settings: ReportSettings

    public init(
        patient: [ReportFact], scan: [ReportFact], slice: MeasuredSlice, calliper: CalliperMeasurements? = nil,
        reference: ReferenceValues? = nil, timeline: FeedbackTimeline? = nil, meshFile: String, notes: [String] = [],
        visits: [VisitPoint] = [], asymmetry: AsymmetryMap? = nil, settings: ReportSettings = .init()
    ) {
        self.visits = visits
        self.asymmetry = asymmetry
        self.settings = settings
        self.patient = patient
        self.scan = scan
        self.slice = slice
        self.calliper = calliper
        self.reference = reference
        self.timeline = timeline
        self.meshFile = meshFile
        self.notes = notes
    }
}

/// A report's content, laid out once and written both as HTML and as PDF, so the two always
/// show the same values.
public struct ClinicalReport: Sendable {
    public var title = "Head scan report"
    public var patient: [ReportFact]
    public var scan: [ReportFact]
    /// Column headings of the values table after the measure's name.
    public var columns: [String]
    public var rows: [ReportValueRow]
    /// The CHOA level of the 3D CVAI.
    public var severity: SeverityLevel
    /// "left", "right" or "none".
    public var flattenedSide: String
    public var slice: Drawing
    public var timeline: Drawing?
    /// Time in each position, milestones and completion, in words.
    public var timelineFacts: [ReportFact]
    public var meshFile: String
    /// How to open the mesh.
    public var meshHelp: [String]
    public var notes: [String]
    public var warnings: [String]
    /// CVAI over the patient's visits, when there were earlier ones.
    public var trend: Drawing?
    /// One line per visit, and the rate of change.
    public var visitLines: [String]
    /// Deformity type and severity under the report's thresholds.
    public var assessment: ShapeAssessment
    /// The asymmetry map's two views and legend, when computed and wanted.
    public var asymmetry: Drawing?
    /// The map's figures in words.
    public var asymmetryLines: [String]

    /// The measured slice beside the asymmetry map when there is one, so both fit one row of
    /// the page.
    public var shapeFigure: Drawing {
        guard let asymmetry else { return slice }
        return Drawing.row([slice, asymmetry], gap: 12)
    }

    /// The caption of `shapeFigure`.
    public var shapeCaption: String {
        Self.sliceCaption + (asymmetry == nil ? "" : " Right: " + Self.asymmetryCaption + " " + asymmetryLines.joined(separator: " "))
    }

    static let sliceCaption =
        "Measured slice seen from above, nose up. Diagonals at 30° from the mid-sagittal axis; dashed red: holes in the scan bridged by straight lines."
    /// Small charts of further measures over the visits.
    public var trendPanels: Drawing?

    /// Lays out the report from its inputs.
    public init(_ inputs: ReportInputs) {
        let measured = inputs.slice.measurement
        let convention = measured.shownConvention(inputs.settings.convention)
        let m = measured.by(convention)
        patient = inputs.patient
        scan = inputs.scan
        severity = m.severityLevel
        flattenedSide = m.flattenedSide.rawValue
        columns = ["3D scan"] + (inputs.calliper == nil ? [] : ["Calliper"]) + (inputs.reference.map { [$0.label] } ?? [])
        rows = Self.rows(m, calliper: inputs.calliper, reference: inputs.reference)
        // The intervals are of the longest outline's values.
        if convention == .longestOutline, let intervals = m.intervals, let i = rows.firstIndex(where: { $0.name == "CVAI" }) {
            rows[i].values[0] = Self.format(m.cvai) + " (" + Self.format(intervals.cvai.low) + "–" + Self.format(intervals.cvai.high) + ")"
            rows[i].name = "CVAI (95 % interval)"
        }
        if inputs.settings.shapeMeasures, let shape = m.shape {
            rows += Self.shapeRows(shape, columns: columns.count)
        }
        assessment = ShapeAssessment(m, thresholds: inputs.settings.thresholds)
        let map = inputs.settings.asymmetryMap ? inputs.asymmetry : nil
        asymmetry = map.map(AsymmetryDrawing.make)
        asymmetryLines = map.map { Self.asymmetryLines($0.summary) } ?? []
        trendPanels = inputs.visits.count >= 2 ? TrendPanels.make(inputs.visits, measures: inputs.settings.trendCharts) : nil
        slice = SliceDrawing.make(inputs.slice)
        timeline = inputs.timeline.map(TimelineDrawing.make)
        timelineFacts = inputs.timeline.map(Self.timelineFacts) ?? []
        meshFile = inputs.meshFile
        meshHelp = [
            "\(inputs.meshFile): a triangle mesh in metres (PLY), in the first keyframe's frame; landmarks in measurement.json"
                + (inputs.asymmetry == nil ? "" : ", the map's colours in asymmetry.ply")
                + ". Open with MeshLab, CloudCompare, Blender or Preview; measure again: headscan measure \(inputs.meshFile) --landmarks measurement.json"
        ]
        notes = Self.conventionLines(measured, shown: convention) + inputs.notes
        warnings = m.warnings.map(\.message)
        trend = inputs.visits.count >= 2 ? TrendDrawing.make(inputs.visits) : nil
        visitLines = inputs.visits.count >= 2 ? Self.visitLines(inputs.visits) : []
    }

    private static func visitLines(_ visits: [VisitPoint]) -> [String] {
        var lines = visits.map { v in
            let age = v.ageWeeks.map { String(format: " (age %.0f weeks)", $0) } ?? ""
            return
                "\(shortDate(v.date))\(age): CVAI \(format(v.cvai)) %, CI \(format(v.ci)), circumference \(format(v.circumferenceMM)) mm, CHOA level \(v.severity.rawValue)"
                + (v.isCurrent ? " (this visit)" : "")
        }
        let weeks = visits[visits.count - 1].date.timeIntervalSince(visits[0].date) / (7 * 24 * 3600)
        if weeks > 0 {
            let change = visits[visits.count - 1].cvai - visits[0].cvai
            lines.append(String(format: "CVAI changed by %+.2f points over %.1f weeks (%+.2f per week).", change, weeks, change / weeks))
        }
        return lines
    }

    /// The deformity type and severity, as the report's lead-in.
    public var assessmentTitle: String {
        let name =
            switch assessment.type {
            case .normal: "Head shape within normal limits."
            case .plagiocephaly: "Positional plagiocephaly."
            case .brachycephaly: "Brachycephaly."
            case .dolichocephaly: "Dolichocephaly."
            case .plagiocephalyWithBrachycephaly: "Positional plagiocephaly with brachycephaly."
            case .plagiocephalyWithDolichocephaly: "Positional plagiocephaly with dolichocephaly."
            }
        return name
    }

    /// Which convention the 3D values are given by, and CVAI by the others, so that a number
    /// compared with a calliper or another scanner is compared like with like.
    static func conventionLines(_ m: HeadMeasurement, shown: SliceConvention) -> [String] {
        guard let all = m.conventions, let values = all.first(where: { $0.convention == shown }) else { return [] }
        let slice =
            shown == .calliper
            ? " (each distance \(format(CalliperBias.published.lengthMM)) mm shorter)" : " at \(format(values.sliceHeightMM)) mm"
        let others = all.filter { $0.convention != shown }.map { "\($0.convention) \(format($0.cvai)) %" }
        return [
            "3D values by the \(shown)\(slice); CVAI by the shorter diagonal \(format(values.cvaiShorterDiagonal)) %"
                + others.map { ", " + $0 }.joined() + "."
        ]
    }

    /// What the asymmetry map's colours mean.
    public static let asymmetryCaption =
        "Asymmetry map: each point's distance to the head's mirror image across its mid-sagittal plane; blue lies inside it (flatter than the other side), red outside (fuller), grey has no mirror partner; saturates at ±5 mm."

    private static func shapeRows(_ shape: ShapeMeasures, columns: Int) -> [ReportValueRow] {
        func row(_ name: String, _ unit: String, _ value: String) -> ReportValueRow {
            ReportValueRow(name: name, unit: unit, values: [value] + Array(repeating: nil, count: columns - 1))
        }
        let v = shape.quadrantVolumes
        return [
            row("Cranial volume", "cm³", String(format: "%.0f", shape.cranialVolumeCM3)),
            row(
                "Quadrants FL / FR / BL / BR", "cm³",
                String(format: "%.0f / %.0f / %.0f / %.0f", v.frontLeftCM3, v.frontRightCM3, v.backLeftCM3, v.backRightCM3)),
            row("Anterior symmetry ratio", "%", format(shape.anteriorSymmetryRatio)),
            row("Posterior symmetry ratio", "%", format(shape.posteriorSymmetryRatio)),
            row("Overall symmetry ratio", "%", format(shape.overallSymmetryRatio)),
            row("Radial symmetry index", "mm", format(shape.radialSymmetryIndexMM)),
            row("Cranial height", "mm", format(shape.cranialHeightMM)),
            row("Ear offset (right ahead)", "mm", format(shape.earOffsetMM)),
            row("Longest diagonal", "mm", format(shape.longestDiagonalMM) + String(format: " at %+.0f°", shape.longestDiagonalAngleDegrees)),
        ]
    }

    private static func asymmetryLines(_ s: AsymmetrySummary) -> [String] {
        [
            String(
                format: "Deepest flattening %.1f mm, largest bulge %.1f mm, %.1f mm RMS above the ear line.",
                -s.maximumInwardMM, s.maximumOutwardMM, s.rmsAboveReferenceMM),
            String(
                format: "The head's best plane of symmetry lies %.1f° and %.1f mm from the landmarks' midline.",
                s.planeTiltDegrees, abs(s.planeOffsetMM)),
        ]
    }

    /// A date as the report prints it.
    public static func shortDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: date)
    }

    /// Every value as the report prints it: two decimals, a point as decimal separator.
    public static func format(_ value: Double) -> String { String(format2: value) }

    private static func rows(_ m: HeadMeasurement, calliper c: CalliperMeasurements?, reference r: ReferenceValues?) -> [ReportValueRow] {
        func row(_ name: String, _ unit: String, _ ours: Double, _ hand: Double?, _ truth: Double?) -> ReportValueRow {
            var values: [String?] = [format(ours)]
            if c != nil { values.append(hand.map(format)) }
            if r != nil { values.append(truth.map(format)) }
            return ReportValueRow(name: name, unit: unit, values: values)
        }
        var rows = [
            row("CVAI", "%", m.cvai, c?.cvai, r?.cvai),
            row("CVA", "mm", m.cvaMM, c?.cvaMM, r?.cvaMM),
            row("Diagonal A", "mm", m.diagonalAMM, c?.diagonalAMM, r?.diagonalAMM),
            row("Diagonal B", "mm", m.diagonalBMM, c?.diagonalBMM, r?.diagonalBMM),
            row("Length", "mm", m.lengthMM, c?.lengthMM, r?.lengthMM),
            row("Width", "mm", m.widthMM, c?.widthMM, r?.widthMM),
            row("Cranial index", "", m.ci, c?.ci, r?.ci),
            row("Circumference", "mm", m.circumferenceMM, c?.circumferenceMM, r?.circumferenceMM),
        ]
        var levels: [String?] = [String(m.severityLevel.rawValue)]
        if let c { levels.append(String(c.severityLevel.rawValue)) }
        if let r { levels.append(String(SeverityLevel(cvai: r.cvai).rawValue)) }
        rows.append(ReportValueRow(name: "CHOA level", unit: "", values: levels))
        return rows
    }

    private static func timelineFacts(_ t: FeedbackTimeline) -> [ReportFact] {
        func seconds(_ s: Double) -> String { String(format2: s) + " s" }
        var facts = [
            ReportFact("Scan length", seconds(t.duration)),
            ReportFact("In position (ideal)", seconds(t.seconds(in: .ideal))),
            ReportFact("Too close", seconds(t.seconds(in: .tooClose))),
            ReportFact("Off centre", seconds(t.seconds(in: .off))),
        ]
        if !t.milestones.isEmpty {
            facts.append(ReportFact("Milestones", t.milestones.map { "\($0.percent) % at \(seconds($0.time))" }.joined(separator: ", ")))
        }
        facts.append(ReportFact("Completed", t.completedAt.map { "at \(seconds($0))" } ?? "no"))
        facts.append(ReportFact("Markers not seen", t.missingMarkers.isEmpty ? "none" : t.missingMarkers.map(String.init).joined(separator: ", ")))
        return facts
    }
}

extension SeverityLevel {
    /// The level's meaning in a clinician's words.
    public var meaning: String {
        switch self {
        case .level1: "Within normal limits (CVAI < 3.5 %). No treatment."
        case .level2: "Mild (CVAI 3.5–6.25 %). Repositioning advised."
        case .level3: "Moderate (CVAI 6.25–8.75 %). Repositioning or helmet, depending on age."
        case .level4: "Severe (CVAI 8.75–11 %). Helmet advised."
        case .level5: "Very severe (CVAI > 11 %). Helmet advised."
        }
    }

    /// A colour for the level, green to red.
    public var color: RGBColor {
        switch self {
        case .level1: RGBColor(hex: 0x2B8A3E)
        case .level2: RGBColor(hex: 0x8AA61C)
        case .level3: RGBColor(hex: 0xD9822B)
        case .level4: RGBColor(hex: 0xD0461E)
        case .level5: RGBColor(hex: 0xB00020)
        }
    }
}
