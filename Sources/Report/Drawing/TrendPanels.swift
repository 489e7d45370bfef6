import Foundation
import ReportKit

/// Small charts of several measures over the patient's visits, side by side, by age in months
/// when the birth date is known (else by date), with the change per month.
enum TrendPanels {
    static let width = 600.0
    static let panelHeight = 70.0

    static func make(_ visits: [VisitPoint], measures: [TrendMeasure]) -> Drawing? {
        let charted = measures.filter { m in visits.filter { m.value($0) != nil }.count >= 2 }
        guard !charted.isEmpty else { return nil }
        let gap = 14.0, top = 14.0
        let panelWidth = (width - gap * Double(charted.count - 1)) / Double(charted.count)
        var d = Drawing(width: width, height: top + panelHeight + 28)
        let byAge = visits.allSatisfy { $0.ageWeeks != nil }
        for (i, measure) in charted.enumerated() {
            panel(&d, visits, measure, x0: Double(i) * (panelWidth + gap), y0: top, width: panelWidth, byAge: byAge)
        }
        return d
    }

    /// Months from weeks (a mean month is 30.44 days).
    static func months(weeks: Double) -> Double { weeks * 7 / 30.4375 }

    private static func panel(_ d: inout Drawing, _ visits: [VisitPoint], _ measure: TrendMeasure, x0: Double, y0: Double, width: Double, byAge: Bool)
    {
        let label = RGBColor(hex: 0x555555), ink = RGBColor(hex: 0x1F4E79)
        let first = visits[0].date
        func time(_ v: VisitPoint) -> Double {
            byAge ? months(weeks: v.ageWeeks ?? 0) : v.date.timeIntervalSince(first) / (30.4375 * 86400)
        }
        let points = visits.compactMap { v in measure.value(v).map { (t: time(v), value: $0, current: v.isCurrent) } }
        guard let tMin = points.map(\.t).min(), let tMax = points.map(\.t).max(),
            let vMin = points.map(\.value).min(), let vMax = points.map(\.value).max()
        else { return }
        let pad = max((vMax - vMin) * 0.25, abs(vMax) * 0.01, 0.5)
        let low = vMin - pad, high = vMax + pad
        let left = x0 + 26, right = x0 + width - 4
        func x(_ t: Double) -> Double { left + (right - left) * (tMax > tMin ? (t - tMin) / (tMax - tMin) : 0.5) }
        func y(_ v: Double) -> Double { y0 + panelHeight * (1 - (v - low) / (high - low)) }
        let (name, unit) = measure.title
        d.text(name + (unit.isEmpty ? "" : " (\(unit))"), x: x0, y: y0 - 4, size: 7.5, bold: true)
        d.rectangle(x: left, y: y0, width: right - left, height: panelHeight, stroke: Stroke(RGBColor(hex: 0xCCCCCC), width: 0.5))
        for v in (vMax - vMin > 0.05 * pad ? [vMin, vMax] : [vMin]) {
            d.text(String(format: "%.1f", v), x: left - 3, y: y(v) + 2.5, size: 6.5, color: label, anchor: .end)
        }
        d.path(points.map { SIMD2(x($0.t), y($0.value)) }, stroke: Stroke(ink, width: 1.1))
        for p in points {
            d.rectangle(x: x(p.t) - 2.2, y: y(p.value) - 2.2, width: 4.4, height: 4.4, fill: p.current ? RGBColor(hex: 0xC0392B) : ink)
        }
        let axis = byAge ? String(format: "age %.1f–%.1f months", tMin, tMax) : String(format: "%.1f months", tMax - tMin)
        d.text(axis, x: left, y: y0 + panelHeight + 9, size: 6.5, color: label)
        if let rate = perMonth(points.map { ($0.t, $0.value) }) {
            d.text(
                String(format: "%+.2f%@ per month", rate, unit.isEmpty ? "" : " " + unit), x: right, y: y0 + panelHeight + 18, size: 6.5,
                color: label, anchor: .end)
        }
    }

    /// The least-squares slope per month; nil when all points share one time.
    static func perMonth(_ points: [(Double, Double)]) -> Double? {
        let n = Double(points.count)
        let mt = points.map(\.0).reduce(0, +) / n, mv = points.map(\.1).reduce(0, +) / n
        let spread = points.reduce(0) { $0 + ($1.0 - mt) * ($1.0 - mt) }
        guard spread > 1e-9 else { return nil }
        return points.reduce(0) { $0 + ($1.0 - mt) * ($1.1 - mv) } / spread
    }
}
