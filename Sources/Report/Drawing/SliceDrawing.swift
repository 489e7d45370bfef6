import Cephalometry
import ReportKit

/// The measured slice seen from above with the nose up: outline (bridged holes dashed red),
/// the head's axes and both diagonals. One unit is one millimetre.
enum SliceDrawing {
    static let outline = RGBColor(hex: 0x1F4E79)
    static let diagonalA = RGBColor(hex: 0xD9822B)
    static let diagonalB = RGBColor(hex: 0x2B8A3E)

    static func make(_ slice: MeasuredSlice) -> Drawing {
        let points = slice.contour.polygon.points
        // Wider at the sides, where the diagonals' labels run past the outline.
        let margin = 0.018, sideMargin = 0.034
        let minX = (points.map(\.x).min() ?? 0) - sideMargin, maxX = (points.map(\.x).max() ?? 0) + sideMargin
        let minY = (points.map(\.y).min() ?? 0) - margin, maxY = (points.map(\.y).max() ?? 0) + margin
        var d = Drawing(width: (maxX - minX) * 1000, height: (maxY - minY) * 1000)
        // The head's forward axis runs up the page; the drawing's y runs down.
        func p(_ q: SIMD2<Double>) -> SIMD2<Double> { SIMD2((q.x - minX) * 1000, (maxY - q.y) * 1000) }
        d.path(points.map(p), closed: true, stroke: Stroke(outline, width: 0.7), fill: RGBColor(hex: 0xEEF4FB))
        for i in slice.contour.bridges {
            d.line(p(points[i]), p(points[(i + 1) % points.count]), Stroke(RGBColor(hex: 0xC00000), width: 0.9, dash: [2, 1]))
        }
        let axis = Stroke(RGBColor(hex: 0x888888), width: 0.3, dash: [1.5, 1])
        d.line(p(SIMD2(0, minY + margin / 2)), p(SIMD2(0, maxY - margin / 2)), axis)
        d.line(p(SIMD2(minX + sideMargin / 2, 0)), p(SIMD2(maxX - sideMargin / 2, 0)), axis)
        d.line(p(slice.diagonalA.front), p(slice.diagonalA.back), Stroke(diagonalA, width: 0.9))
        d.line(p(slice.diagonalB.front), p(slice.diagonalB.back), Stroke(diagonalB, width: 0.9))
        let m = slice.measurement
        d.text(
            "A " + ClinicalReport.format(m.diagonalAMM) + " mm", x: p(slice.diagonalA.front).x - 1, y: p(slice.diagonalA.front).y - 2,
            size: 7, color: diagonalA, anchor: .end, bold: true)
        d.text(
            "B " + ClinicalReport.format(m.diagonalBMM) + " mm", x: p(slice.diagonalB.front).x + 1, y: p(slice.diagonalB.front).y - 2,
            size: 7, color: diagonalB, bold: true)
        let grey = RGBColor(hex: 0x666666)
        d.text("front", x: p(SIMD2(0, maxY)).x, y: 7, size: 6.5, color: grey, anchor: .middle)
        d.text("left", x: 1.5, y: p(.zero).y - 1.5, size: 6.5, color: grey)
        d.text("right", x: d.size.x - 1.5, y: p(.zero).y - 1.5, size: 6.5, color: grey, anchor: .end)
        return d
    }
}
