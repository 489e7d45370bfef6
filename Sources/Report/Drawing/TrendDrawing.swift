import Cephalometry
import Foundation
import ReportKit

/// One visit as the report's trend shows it.
public struct VisitPoint: Sendable, Equatable {
    /// Date of the visit.
    public var date: Date
    /// Age in weeks, when the birth date is known.
    public var ageWeeks: Double?
    /// The visit's values.
    public var cvai: Double
    public var ci: Double
    public var circumferenceMM: Double
    public var severity: SeverityLevel
    /// Whether this is the visit the report is about.
    public var isCurrent: Bool
    /// The 3D measures, for visits measured since HeadScan reports them.
    public var shape: ShapeMeasures?

    public init(
        date: Date, ageWeeks: Double?, cvai: Double, ci: Double, circumferenceMM: Double, severity: SeverityLevel, isCurrent: Bool,
        shape: ShapeMeasures? = nil
    ) {
        self.shape = shape
        self.date = date
        self.ageWeeks = ageWeeks
        self.cvai = cvai
        self.ci = ci
        self.circumferenceMM = circumferenceMM
        self.severity = severity
        self.isCurrent = isCurrent
    }
}

/// CVAI over the patient's visits against the CHOA levels: the course of the deformation.
enum TrendDrawing {
    static func make(_ visits: [VisitPoint]) -> Drawing {
        let width = 600.0, left = 46.0, right = 16.0, top = 10.0, height = 120.0
        var d = Drawing(width: width, height: top + height + 34)
        let first = visits[0].date, last = visits[visits.count - 1].date
        let span = max(last.timeIntervalSince(first), 1)
        let maxCVAI = max(12, (visits.map(\.cvai).max() ?? 0) + 1)
        // Points keep clear of the axis labels and the level names.
        let inset = 24.0
        func x(_ date: Date) -> Double { left + inset + (width - left - right - 2 * inset - 20) * date.timeIntervalSince(first) / span }
        func y(_ cvai: Double) -> Double { top + height * (1 - cvai / maxCVAI) }
        let label = RGBColor(hex: 0x555555)
        // CHOA bands from level 1 (below 3.5 %) to level 5 (above 11 %).
        let bounds = [0, 3.5, 6.25, 8.75, 11, maxCVAI]
        for level in 1...5 {
            let color = SeverityLevel(rawValue: level)!.color
            let tint = RGBColor(1 - (1 - color.red) * 0.18, 1 - (1 - color.green) * 0.18, 1 - (1 - color.blue) * 0.18)
            d.rectangle(x: left, y: y(bounds[level]), width: width - left - right, height: y(bounds[level - 1]) - y(bounds[level]), fill: tint)
            d.text("level \(level)", x: width - right - 2, y: y(bounds[level]) + 9, size: 7, color: label, anchor: .end)
        }
        for cvai in stride(from: 0.0, through: maxCVAI, by: 2) {
            d.text(String(format: "%.0f %%", cvai), x: left - 4, y: y(cvai) + 3, size: 8, color: label, anchor: .end)
        }
        let points = visits.map { SIMD2(x($0.date), y($0.cvai)) }
        d.path(points, stroke: Stroke(RGBColor(hex: 0x1F4E79), width: 1.4))
        for (visit, p) in zip(visits, points) {
            d.rectangle(x: p.x - 3, y: p.y - 3, width: 6, height: 6, fill: visit.isCurrent ? RGBColor(hex: 0xC0392B) : RGBColor(hex: 0x1F4E79))
            d.text(String(format: "%.1f", visit.cvai), x: p.x, y: p.y - 6, size: 8, anchor: .middle)
            d.text(ClinicalReport.shortDate(visit.date), x: p.x, y: top + height + 12, size: 8, color: label, anchor: .middle)
            if let age = visit.ageWeeks {
                d.text(String(format: "%.0f wk", age), x: p.x, y: top + height + 22, size: 7, color: label, anchor: .middle)
            }
        }
        d.text("CVAI (%) at each visit; red: this visit", x: left, y: top + height + 32, size: 8, color: label)
        return d
    }
}
