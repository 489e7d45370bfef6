import Feedback
import ReportKit

/// The feedback over the scan: a band coloured by the published position, the progress
/// curve above it, milestones as ticks and the completion as a flag.
enum TimelineDrawing {
    static let ideal = RGBColor(hex: 0x2B8A3E)
    static let tooClose = RGBColor(hex: 0xD9822B)
    static let off = RGBColor(hex: 0xC0392B)

    static func make(_ timeline: FeedbackTimeline) -> Drawing {
        let width = 600.0, left = 46.0, right = 10.0
        let chartTop = 12.0, chartHeight = 70.0, bandTop = 88.0, bandHeight = 12.0
        var d = Drawing(width: width, height: 132)
        let duration = max(timeline.duration, 1)
        func x(_ t: Double) -> Double { left + (width - left - right) * t / duration }
        func y(_ percent: Int) -> Double { chartTop + chartHeight * (1 - Double(percent) / 100) }
        let grid = Stroke(RGBColor(hex: 0xDDDDDD), width: 0.5)
        let label = RGBColor(hex: 0x555555)
        for percent in stride(from: 0, through: 100, by: 25) {
            d.line(SIMD2(left, y(percent)), SIMD2(width - right, y(percent)), grid)
            d.text("\(percent) %", x: left - 4, y: y(percent) + 3, size: 8, color: label, anchor: .end)
        }
        for segment in timeline.segments where segment.end > segment.start {
            d.rectangle(x: x(segment.start), y: bandTop, width: x(segment.end) - x(segment.start), height: bandHeight, fill: color(segment.position))
        }
        d.rectangle(x: left, y: bandTop, width: width - left - right, height: bandHeight, stroke: Stroke(label, width: 0.5))
        d.text("position", x: left - 4, y: bandTop + 9, size: 8, color: label, anchor: .end)
        var curve: [SIMD2<Double>] = []
        for point in timeline.progress {
            if let last = curve.last { curve.append(SIMD2(x(point.time), last.y)) }
            curve.append(SIMD2(x(point.time), y(point.percent)))
        }
        if let last = curve.last { curve.append(SIMD2(x(timeline.duration), last.y)) }
        d.path(curve, stroke: Stroke(RGBColor(hex: 0x1F4E79), width: 1.4))
        for milestone in timeline.milestones {
            d.line(SIMD2(x(milestone.time), chartTop), SIMD2(x(milestone.time), bandTop + bandHeight), Stroke(label, width: 0.5, dash: [2, 2]))
        }
        if let done = timeline.completedAt {
            d.line(SIMD2(x(done), chartTop - 4), SIMD2(x(done), bandTop + bandHeight), Stroke(ideal, width: 1.2))
            d.text("done", x: x(done) + 2, y: chartTop - 2, size: 8, color: ideal, bold: true)
        }
        let step = duration > 60 ? 20.0 : duration > 20 ? 10.0 : 5.0
        for t in stride(from: 0, through: duration, by: step) {
            d.text("\(Int(t)) s", x: x(t), y: bandTop + bandHeight + 10, size: 8, color: label, anchor: .middle)
        }
        legend(&d, y: 128)
        return d
    }

    private static func legend(_ d: inout Drawing, y: Double) {
        var x = 46.0
        for (name, color) in [("ideal", ideal), ("too close", tooClose), ("off centre", off)] {
            d.rectangle(x: x, y: y - 7, width: 9, height: 8, fill: color)
            d.text(name, x: x + 12, y: y, size: 8)
            x += 70
        }
        d.line(SIMD2(x, y - 3), SIMD2(x + 14, y - 3), Stroke(RGBColor(hex: 0x1F4E79), width: 1.4))
        d.text("progress (markers seen)", x: x + 18, y: y, size: 8)
        x += 130
        d.line(SIMD2(x, y - 7), SIMD2(x, y + 1), Stroke(RGBColor(hex: 0x555555), width: 0.5, dash: [2, 2]))
        d.text("milestone", x: x + 4, y: y, size: 8)
    }

    private static func color(_ position: PositionClass) -> RGBColor {
        switch position {
        case .ideal: ideal
        case .tooClose: tooClose
        case .off: off
        }
    }
}
