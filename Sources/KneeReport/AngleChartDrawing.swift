import Foundation
import RangeOfMotion
import ReportKit

/// The knee angle over the video: every frame's reading (rejected ones as red crosses), the
/// smoothed angle of the passed frames, the straight line at 180° and the two extremes.
enum AngleChartDrawing {
    static let line = RGBColor(hex: 0x1F4E79)
    static let rejected = RGBColor(hex: 0xC0392B)
    static let extreme = RGBColor(hex: 0xD9822B)
    static let grey = RGBColor(hex: 0x555555)

    static func make(_ a: RangeOfMotionAnalysis) -> Drawing {
        let width = 600.0, left = 44.0, right = 12.0, top = 12.0, chartHeight = 158.0
        var d = Drawing(width: width, height: 206)
        let (low, high) = range(a)
        let start = a.frames.first?.time ?? 0, duration = max((a.frames.last?.time ?? 0) - start, 1)
        func x(_ t: Double) -> Double { left + (width - left - right) * (t - start) / duration }
        func y(_ angle: Double) -> Double { top + chartHeight * (1 - (min(max(angle, low), high) - low) / (high - low)) }
        let grid = Stroke(RGBColor(hex: 0xDDDDDD), width: 0.5)
        for angle in stride(from: low, through: high, by: 20) {
            d.line(SIMD2(left, y(angle)), SIMD2(width - right, y(angle)), grid)
            d.text("\(Int(angle))°", x: left - 4, y: y(angle) + 3, size: 8, color: grey, anchor: .end)
        }
        d.line(SIMD2(left, y(180)), SIMD2(width - right, y(180)), Stroke(grey, width: 0.8, dash: [4, 3]))
        d.text("straight", x: width - right - 2, y: y(180) - 3, size: 8, color: grey, anchor: .end)
        let passed = a.frames.filter(\.passed)
        d.path(passed.map { SIMD2(x($0.time), y($0.smoothedAngle!)) }, stroke: Stroke(line, width: 1.5))
        for f in a.frames {
            guard let angle = f.angle else { continue }
            let p = SIMD2(x(f.time), y(angle))
            if f.passed {
                d.rectangle(x: p.x - 1.5, y: p.y - 1.5, width: 3, height: 3, fill: line)
            } else {
                d.line(p - SIMD2(2.5, 2.5), p + SIMD2(2.5, 2.5), Stroke(rejected, width: 1))
                d.line(p + SIMD2(-2.5, 2.5), p + SIMD2(2.5, -2.5), Stroke(rejected, width: 1))
            }
        }
        for (e, label) in [(a.minimum, "min"), (a.maximum, "max")] {
            guard let e else { continue }
            d.path(StickFigureDrawing.circle(SIMD2(x(e.time), y(e.angle)), radius: 4), closed: true, stroke: Stroke(extreme, width: 1.5))
            let nearRight = x(e.time) > width - 90
            d.text(
                "\(label) \(KneeReport.degrees(e.angle))", x: x(e.time) + (nearRight ? -7 : 7), y: y(e.angle) + (label == "min" ? 3 : -6),
                size: 8, color: extreme, anchor: nearRight ? .end : .start, bold: true)
        }
        timeAxis(&d, start: start, duration: duration, x: x, y: top + chartHeight + 12)
        legend(&d, y: 201, window: a.settings.smoothingWindow)
        return d
    }

    /// The angle axis: 20° steps around the passed frames' angles, always showing 180°;
    /// rejected readings outside it sit on its edge.
    private static func range(_ a: RangeOfMotionAnalysis) -> (Double, Double) {
        let angles = a.frames.filter(\.passed).flatMap { [$0.angle!, $0.smoothedAngle!] }
        let low = min(angles.min() ?? 0, 170), high = max(angles.max() ?? 180, 190)
        return ((low / 20).rounded(.down) * 20, min(260, (high / 20).rounded(.up) * 20))
    }

    private static func timeAxis(_ d: inout Drawing, start: Double, duration: Double, x: (Double) -> Double, y: Double) {
        let step = duration > 60 ? 10.0 : duration > 20 ? 5.0 : duration > 8 ? 2.0 : 1.0
        for t in stride(from: 0, through: duration, by: step) {
            d.text("\(Int(t)) s", x: x(start + t), y: y, size: 8, color: grey, anchor: .middle)
        }
    }

    private static func legend(_ d: inout Drawing, y: Double, window: Int) {
        d.rectangle(x: 44, y: y - 5.5, width: 3, height: 3, fill: line)
        d.text("frame passed", x: 51, y: y, size: 8)
        d.line(SIMD2(124, y - 6), SIMD2(129, y - 1), Stroke(rejected, width: 1))
        d.line(SIMD2(124, y - 1), SIMD2(129, y - 6), Stroke(rejected, width: 1))
        d.text("frame rejected", x: 134, y: y, size: 8)
        d.line(SIMD2(214, y - 3.5), SIMD2(230, y - 3.5), Stroke(line, width: 1.5))
        d.text(window > 1 ? "smoothed angle (running median of \(window))" : "angle", x: 234, y: y, size: 8)
        d.path(StickFigureDrawing.circle(SIMD2(396, y - 3.5), radius: 3.5), closed: true, stroke: Stroke(extreme, width: 1.5))
        d.text("smallest and largest angle", x: 403, y: y, size: 8)
    }
}
