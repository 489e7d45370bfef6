import Foundation

/// Draws a measured slice as SVG, seen from above with the nose up: the outline (holes that
/// were bridged dashed in red), the mid-sagittal and ear-to-ear axes, both diagonals and the
/// values. One SVG unit is one millimetre.
public enum SliceSVG {
    /// The SVG document for `slice`.
    public static func render(_ slice: MeasuredSlice) -> String {
        let points = slice.contour.polygon.points
        let xs = points.map(\.x), ys = points.map(\.y)
        let margin = 0.015
        let minX = (xs.min() ?? 0) - margin, maxX = (xs.max() ?? 0) + margin
        let minY = (ys.min() ?? 0) - margin, maxY = (ys.max() ?? 0) + margin
        let textHeight = 60.0
        let width = (maxX - minX) * 1000, height = (maxY - minY) * 1000 + textHeight
        // SVG's y runs down; the head's forward axis runs up the page.
        func x(_ p: SIMD2<Double>) -> String { f((p.x - minX) * 1000) }
        func y(_ p: SIMD2<Double>) -> String { f((maxY - p.y) * 1000) }
        func line(_ a: SIMD2<Double>, _ b: SIMD2<Double>, _ style: String) -> String {
            "<line x1=\"\(x(a))\" y1=\"\(y(a))\" x2=\"\(x(b))\" y2=\"\(y(b))\" \(style)/>"
        }
        var svg = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(f(width * 4))\" height=\"\(f(height * 4))\" viewBox=\"0 0 \(f(width)) \(f(height))\">",
            "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>",
        ]
        let path = points.map { "\(x($0)),\(y($0))" }.joined(separator: " ")
        svg.append("<polygon points=\"\(path)\" fill=\"#eef4fb\" stroke=\"#1f4e79\" stroke-width=\"0.6\"/>")
        for i in slice.contour.bridges {
            svg.append(line(points[i], points[(i + 1) % points.count], "stroke=\"#c00000\" stroke-width=\"0.8\" stroke-dasharray=\"2,1\""))
        }
        let axis = "stroke=\"#888888\" stroke-width=\"0.3\" stroke-dasharray=\"1.5,1\""
        svg.append(line(SIMD2(0, minY + margin / 2), SIMD2(0, maxY - margin / 2), axis))
        svg.append(line(SIMD2(minX + margin / 2, 0), SIMD2(maxX - margin / 2, 0), axis))
        svg.append(line(slice.diagonalA.front, slice.diagonalA.back, "stroke=\"#d9822b\" stroke-width=\"0.7\""))
        svg.append(line(slice.diagonalB.front, slice.diagonalB.back, "stroke=\"#2b8a3e\" stroke-width=\"0.7\""))
        let label = "font-family=\"sans-serif\" font-size=\"4\""
        svg.append("<text x=\"\(x(slice.diagonalA.front))\" y=\"\(y(slice.diagonalA.front))\" \(label) fill=\"#d9822b\" text-anchor=\"end\">A</text>")
        svg.append("<text x=\"\(x(slice.diagonalB.front))\" y=\"\(y(slice.diagonalB.front))\" \(label) fill=\"#2b8a3e\">B</text>")
        svg.append("<text x=\"\(f(2))\" y=\"\(y(.zero))\" \(label) fill=\"#888888\">L</text>")
        svg.append("<text x=\"\(f(width - 5))\" y=\"\(y(.zero))\" \(label) fill=\"#888888\">R</text>")
        let m = slice.measurement
        let lines = [
            "A \(f(m.diagonalAMM)) mm   B \(f(m.diagonalBMM)) mm   CVA \(f(m.cvaMM)) mm   CVAI \(f(m.cvai)) %",
            "CI \(f(m.ci))   length \(f(m.lengthMM)) mm   width \(f(m.widthMM)) mm",
            "circumference \(f(m.circumferenceMM)) mm   slice \(f(m.sliceHeightMM)) mm above reference plane",
            "CHOA level \(m.severityLevel.rawValue)   flattened: \(m.flattenedSide.rawValue)   warnings: \(m.warnings.count)",
        ]
        for (i, text) in lines.enumerated() {
            svg.append("<text x=\"2\" y=\"\(f(height - textHeight + 10 + Double(i) * 8))\" \(label)>\(escape(text))</text>")
        }
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }

    private static func f(_ v: Double) -> String { String(format: "%.2f", v) }

    private static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
    }
}
