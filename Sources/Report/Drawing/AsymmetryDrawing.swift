import Cephalometry
import Foundation
import ReportKit

/// The asymmetry map seen from above (nose up) and from behind, as 3 mm squares coloured by
/// the distance to the head's mirror image, with a legend. One unit is one millimetre.
///
/// Squares rather than triangles: a scan has a hundred thousand triangles, far more than a
/// printed page shows, and a square per 3 mm keeps the report small and the picture the same.
public enum AsymmetryDrawing {
    /// The words in the drawing, so an app can show them in its language.
    public struct Labels: Sendable {
        public var above = "from above, nose up", behind = "from behind", left = "left", right = "right"
        public var flatter = "flatter (mm)", fuller = "fuller"

        public init(above: String, behind: String, left: String, right: String, flatter: String, fuller: String) {
            (self.above, self.behind, self.left, self.right, self.flatter, self.fuller) = (above, behind, left, right, flatter, fuller)
        }

        init() {}
    }

    static let range = AsymmetryMap.colorRange
    static let cell = 3.0

    static func color(_ mm: Double) -> RGBColor {
        let c = AsymmetryMap.color(mm: mm)
        return RGBColor(c.x, c.y, c.z)
    }

    /// Both views side by side above a legend.
    public static func make(_ map: AsymmetryMap) -> Drawing { make(map, labels: Labels()) }

    /// Both views side by side above a legend, in `labels`' words.
    public static func make(_ map: AsymmetryMap, labels: Labels) -> Drawing {
        let points = map.headPoints.map { $0 * 1000 }
        let shown = zip(points, map.valuesMM).filter { $0.0.z > -25 }
        let xs = shown.map(\.0.x), ys = shown.map(\.0.y), zs = shown.map(\.0.z)
        guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max(), let maxZ = zs.max() else {
            return Drawing(width: 10, height: 10)
        }
        let minZ = zs.min() ?? 0
        let gap = 24.0, top = 14.0
        let topWidth = maxX - minX, topHeight = maxY - minY, backHeight = maxZ - minZ
        var d = Drawing(width: 2 * topWidth + gap, height: top + max(topHeight, backHeight) + 40)
        let grey = RGBColor(hex: 0x555555)
        // Top view: the highest point of each square; x right, forward up the page.
        paint(&d, shown, across: { $0.x - minX }, down: { maxY - $0.y }, keep: { $0.z }, offset: SIMD2(0, top))
        // Back view: the rearmost point of each square; seen from behind, the infant's right
        // is on the right, up is up.
        paint(&d, shown, across: { $0.x - minX }, down: { maxZ - $0.z }, keep: { -$0.y }, offset: SIMD2(topWidth + gap, top))
        d.text(labels.above, x: topWidth / 2, y: top - 4, size: 8, color: grey, anchor: .middle)
        d.text(labels.behind, x: topWidth + gap + topWidth / 2, y: top - 4, size: 8, color: grey, anchor: .middle)
        for (x, label) in [(0.0, labels.left), (topWidth, labels.right), (topWidth + gap, labels.left), (2 * topWidth + gap, labels.right)] {
            d.text(
                label, x: x, y: top + max(topHeight, backHeight) + 9, size: 7.5, color: grey, anchor: x == 0 || x == topWidth + gap ? .start : .end)
        }
        legend(&d, y: top + max(topHeight, backHeight) + 16, width: d.size.x, labels: labels)
        return d
    }

    private static func paint(
        _ d: inout Drawing, _ shown: [(SIMD3<Double>, Double)], across: (SIMD3<Double>) -> Double, down: (SIMD3<Double>) -> Double,
        keep: (SIMD3<Double>) -> Double, offset: SIMD2<Double>
    ) {
        var best: [SIMD2<Int>: (depth: Double, value: Double)] = [:]
        for (p, value) in shown {
            let key = SIMD2(Int(across(p) / cell), Int(down(p) / cell))
            if keep(p) > best[key]?.depth ?? -.infinity { best[key] = (keep(p), value) }
        }
        for key in best.keys.sorted(by: { ($0.y, $0.x) < ($1.y, $1.x) }) {
            guard let value = best[key]?.value else { continue }
            d.rectangle(x: offset.x + Double(key.x) * cell, y: offset.y + Double(key.y) * cell, width: cell, height: cell, fill: color(value))
        }
    }

    private static func legend(_ d: inout Drawing, y: Double, width: Double, labels: Labels) {
        let grey = RGBColor(hex: 0x555555)
        let barWidth = min(110, width * 0.4), x0 = (width - barWidth) / 2
        let steps = 20
        for i in 0..<steps {
            let mm = -range + (Double(i) + 0.5) / Double(steps) * 2 * range
            d.rectangle(x: x0 + Double(i) * barWidth / Double(steps), y: y, width: barWidth / Double(steps) + 0.05, height: 6, fill: color(mm))
        }
        for mm in stride(from: -range, through: range, by: range / 2) {
            let x = x0 + (mm + range) / (2 * range) * barWidth
            d.text(String(format: "%+.1f", mm).replacingOccurrences(of: "+0.0", with: "0"), x: x, y: y + 14, size: 7, color: grey, anchor: .middle)
        }
        d.text(labels.flatter, x: x0 - 3, y: y + 5.5, size: 7, color: grey, anchor: .end)
        d.text(labels.fuller, x: x0 + barWidth + 3, y: y + 5.5, size: 7, color: grey)
    }
}
