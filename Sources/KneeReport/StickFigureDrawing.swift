import Foundation
import RangeOfMotion
import ReportKit

/// One frame's legs as a stick figure, as the camera saw them: the measured leg bold with
/// its knee angle, the other leg faint. One unit is about one point.
enum StickFigureDrawing {
    static let leg = RGBColor(hex: 0x1F4E79)
    static let otherLeg = RGBColor(hex: 0xB8C4D0)
    static let angleColor = RGBColor(hex: 0xD9822B)

    static func make(_ frame: ExtremeFrame, caption: String) -> Drawing {
        let width = 220.0, height = 250.0, margin = 26.0, top = 22.0
        var d = Drawing(width: width, height: height)
        let pose = frame.pose
        let points = [pose.hip, pose.knee, pose.ankle] + [pose.otherHip, pose.otherKnee, pose.otherAnkle].compactMap { $0 }
        let low = SIMD2(points.map(\.x).min()!, points.map(\.y).min()!)
        let high = SIMD2(points.map(\.x).max()!, points.map(\.y).max()!)
        let span = high - low
        let scale = min((width - 2 * margin) / max(span.x, 1), (height - top - 2 * margin) / max(span.y, 1))
        let offset = SIMD2(width / 2, top + (height - top) / 2) - (low + span / 2) * scale
        func p(_ q: SIMD2<Double>) -> SIMD2<Double> { q * scale + offset }
        d.rectangle(x: 0.5, y: 0.5, width: width - 1, height: height - 1, stroke: Stroke(RGBColor(hex: 0xDDDDDD), width: 0.8))
        d.text("\(caption): \(KneeReport.degrees(frame.angle))", x: width / 2, y: 15, size: 11, color: .black, anchor: .middle, bold: true)
        if let hip = pose.otherHip, let knee = pose.otherKnee, let ankle = pose.otherAnkle {
            d.path([p(hip), p(knee), p(ankle)], stroke: Stroke(otherLeg, width: 3))
        }
        if let other = pose.otherHip { d.line(p(pose.hip), p(other), Stroke(otherLeg, width: 1.2, dash: [3, 2])) }
        arc(&d, center: p(pose.knee), from: p(pose.hip), to: p(pose.ankle), degrees: frame.frameAngle)
        d.path([p(pose.hip), p(pose.knee), p(pose.ankle)], stroke: Stroke(leg, width: 4))
        for (name, q) in [("hip", pose.hip), ("knee", pose.knee), ("ankle", pose.ankle)] {
            d.path(circle(p(q), radius: 4.5), closed: true, stroke: Stroke(.white, width: 1), fill: leg)
            d.text(name, x: p(q).x + 8, y: p(q).y + 3, size: 8.5, color: RGBColor(hex: 0x555555))
        }
        d.text(
            "frame \(frame.index), \(String(format1: frame.time)) s", x: width / 2, y: height - 8, size: 8.5, color: RGBColor(hex: 0x555555),
            anchor: .middle)
        return d
    }

    /// The arc of the knee angle as read, from the thigh to the shank: the short way round,
    /// or the long way when the reading is past straight (hyperextension).
    private static func arc(_ d: inout Drawing, center: SIMD2<Double>, from a: SIMD2<Double>, to b: SIMD2<Double>, degrees: Double) {
        let start = atan2(a.y - center.y, a.x - center.x)
        var sweep = atan2(b.y - center.y, b.x - center.x) - start
        if sweep > .pi { sweep -= 2 * .pi }
        if sweep < -.pi { sweep += 2 * .pi }
        if degrees > 180 { sweep -= (sweep >= 0 ? 1 : -1) * 2 * .pi }
        let radius = 20.0
        let points = (0...24).map { i -> SIMD2<Double> in
            let t = start + sweep * Double(i) / 24
            return center + radius * SIMD2(cos(t), sin(t))
        }
        d.path([center] + points, closed: true, stroke: Stroke(angleColor, width: 1.2), fill: RGBColor(hex: 0xFBE3CC))
    }

    static func circle(_ c: SIMD2<Double>, radius: Double) -> [SIMD2<Double>] {
        (0..<16).map { i in
            let t = Double(i) / 16 * 2 * .pi
            return c + radius * SIMD2(cos(t), sin(t))
        }
    }
}
