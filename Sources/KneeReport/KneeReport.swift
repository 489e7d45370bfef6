import Foundation
import RangeOfMotion
import ReportKit

/// What a knee report is made from.
public struct KneeReportInputs: Sendable {
    public var analysis: RangeOfMotionAnalysis
    public var patientID: String?
    /// When the video was measured.
    public var date: Date?
    /// Where the poses came from (file name, "video").
    public var source: String
    /// The patient's earlier measurements, oldest first.
    public var earlier: [RangeOfMotionRecord]

    public init(analysis: RangeOfMotionAnalysis, patientID: String? = nil, date: Date? = nil, source: String, earlier: [RangeOfMotionRecord] = []) {
        self.analysis = analysis
        self.patientID = patientID
        self.date = date
        self.source = source
        self.earlier = earlier
    }
}

/// One row of the neutral-zero form: a joint's movement on the right and on the left.
public struct NeutralZeroRow: Sendable, Equatable {
    public var joint: String
    public var movement: String
    public var right: String
    public var left: String
}

/// A knee report's content, laid out once and written as HTML and as PDF.
public struct KneeReport: Sendable {
    public var title = "Knee range of motion"
    public var facts: [ReportFact]
    /// The form's row, as on the DGUV sheet for the lower limbs.
    public var form: NeutralZeroRow
    /// "Accepted" or "Refused", with the one-line outcome.
    public var accepted: Bool
    public var outcome: String
    public var values: [ReportFact]
    public var minimumFigure: Drawing?
    public var maximumFigure: Drawing?
    public var chart: Drawing
    public var quality: [ReportFact]
    public var rejections: [String]
    public var warnings: [String]
    /// Earlier results: date, side, form, frames passed.
    public var history: [[String]]
    public var notes: [String]

    /// Lays out the report.
    public init(_ inputs: KneeReportInputs) {
        let a = inputs.analysis
        let form = a.accepted ? a.neutralZero?.notation ?? "–" : "–"
        facts = Self.facts(inputs)
        self.form = NeutralZeroRow(
            joint: "Knee (Kniegelenk)", movement: "Extension/flexion (Streckung/Beugung)",
            right: a.side == .right ? form : "", left: a.side == .left ? form : "")
        accepted = a.accepted
        outcome =
            a.accepted
            ? "\(a.side.rawValue.capitalized) knee, extension/flexion \(form) (neutral-zero method)."
            : "Not measured: the video was refused, " + a.quality.refusalText + "."
        values = Self.values(a)
        minimumFigure = a.minimum.map { StickFigureDrawing.make($0, caption: "Most bent") }
        maximumFigure = a.maximum.map { StickFigureDrawing.make($0, caption: "Straightest") }
        chart = AngleChartDrawing.make(a)
        quality = Self.quality(a.quality)
        rejections = a.quality.rejectionPhrases
        warnings = a.warnings.map(\.message)
        history = inputs.earlier.map { r in
            [Self.format(r.date), r.analysis.side.rawValue, r.neutralZero ?? "refused", QualitySummary.percentText(r.analysis.quality.passedShare)]
        }
        notes = Self.notes(a)
    }

    /// An angle as the report prints it: one decimal and the degree sign.
    public static func degrees(_ value: Double) -> String { String(format1: value) + "°" }

    /// A date as "2026-11-22 10:30".
    public static func format(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }

    private static func facts(_ inputs: KneeReportInputs) -> [ReportFact] {
        var facts: [ReportFact] = []
        if let id = inputs.patientID { facts.append(ReportFact("Patient ID", id)) }
        if let date = inputs.date { facts.append(ReportFact("Measured", format(date))) }
        facts.append(ReportFact("Side", inputs.analysis.side.rawValue))
        facts.append(ReportFact("Poses", inputs.source))
        let a = inputs.analysis
        facts.append(ReportFact("Picture", "\(Int(a.width)) x \(Int(a.height)) px"))
        return facts
    }

    private static func values(_ a: RangeOfMotionAnalysis) -> [ReportFact] {
        guard let low = a.minimum, let high = a.maximum, let nz = a.neutralZero,
            let lowText = a.smallestAngleText(degrees: degrees), let highText = a.largestAngleText(degrees: degrees)
        else { return [] }
        func at(_ e: ExtremeFrame, _ text: String) -> String { "\(text) (frame \(e.index), \(String(format1: e.time)) s)" }
        let short = nz.extensionDegrees < 0 ? (nz.extensionAtLeast ? " (may not straighten fully)" : " (does not straighten fully)") : ""
        return [
            ReportFact("Smallest knee angle", at(low, lowText)),
            ReportFact("Largest knee angle", at(high, highText)),
            ReportFact("Flexion", nz.flexionText(degrees: degrees)),
            ReportFact("Extension", nz.extensionText(degrees: degrees) + short),
            ReportFact("Range", NeutralZero.boundPrefix(nz.isBound) + degrees(high.angle - low.angle)),
        ]
    }

    private static func quality(_ q: QualitySummary) -> [ReportFact] {
        [
            ReportFact("Frames passed", "\(q.framesPassed) of \(q.framesTotal) (\(QualitySummary.percentText(q.passedShare)))"),
            ReportFact("Needed", "at least \(QualitySummary.percentText(q.requiredShare))"),
            ReportFact("Result", q.accepted ? "accepted" : "refused"),
        ]
    }

    /// How to read the report, as the analysis read this video: the ends fitted over time or
    /// taken from the smoothed frames, the slant undone or not, and what ± means when shown.
    private static func notes(_ a: RangeOfMotionAnalysis) -> [String] {
        let settings = a.settings
        let fitted = settings.extremeFit && settings.extremeBand > 0
        var notes = [
            "Neutral-zero method: 0 is the straight leg. The form reads extension-0-flexion: 5-0-140 is 5° past straight and 140° bent. A knee that stops 10° short of straight and bends to 120° reads 0-10-120.",
            "The knee angle is read in the video between hip, knee and ankle (180° = straight); flexion is 180° minus the smallest angle, extension the largest angle minus 180°.",
        ]
        if fitted {
            notes.append(
                "Smallest and largest angle are each read from a fit of the angle over time around every time the knee reached that end, whether the patient held it or turned straight back; frames that failed a quality check are left out."
            )
        } else {
            notes.append(
                settings.smoothingWindow > 1
                    ? "Smallest and largest angle come from the angle smoothed over \(settings.smoothingWindow) neighbouring frames (running median); frames that failed a quality check are left out."
                    : "Smallest and largest angle come from single frames; frames that failed a quality check are left out.")
        }
        if [a.minimum, a.maximum].contains(where: { $0?.uncertainty != nil }) {
            notes.append(
                "± after an end is its standard error: the frames' scatter, the fit's shape and how sure the camera's slant is. The true end lies within twice it in about 19 of 20 measurements filmed from the side or up to 30° off it, less often further off."
            )
        }
        notes.append(
            settings.correctSlant
                ? "A camera not exactly at the leg's side is undone before the angles are read: the thigh and shank keep their lengths, which shows the plane the leg moves in. Film from the side where you can: the further off it, the less sure the bent end."
                : "The angle in a picture equals the knee's only when the camera looks at the leg from the side; filmed at a slant a slight bend looks slighter and a deep bend deeper, so flexion reads too large."
        )
        if a.neutralZero?.isBound ?? false {
            notes.insert(
                "≥ marks an end of the movement the camera did not see, where the leg left the picture: the knee went at least that far. A middle number marked ≤ (a knee short of straight) is at most that.",
                at: 1)
        }
        return notes
    }
}

extension QualitySummary {
    /// "80 %".
    static func percentText(_ share: Double) -> String { "\(Int((share * 100).rounded())) %" }
}

extension String {
    /// One decimal without Foundation's locale-dependent formatting.
    init(format1 value: Double) {
        let tenths = Int((abs(value) * 10).rounded())
        self = (value < 0 && tenths != 0 ? "-" : "") + "\(tenths / 10).\(tenths % 10)"
    }
}
