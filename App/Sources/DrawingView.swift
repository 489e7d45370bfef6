import ReportKit
import SwiftUI

/// A report `Drawing` (the asymmetry map, a chart) drawn with SwiftUI's Canvas, scaled to the
/// available width; the same picture the PDF and HTML reports show.
struct DrawingView: View {
    let drawing: Drawing

    var body: some View {
        Canvas { context, size in
            let scale = drawing.size.x > 0 ? size.width / drawing.size.x : 1
            for element in drawing.elements { draw(element, in: &context, scale: scale) }
        }
        .aspectRatio(drawing.size.y > 0 ? drawing.size.x / drawing.size.y : 1, contentMode: .fit)
        .accessibilityHidden(true)
    }

    private func draw(_ element: DrawingElement, in context: inout GraphicsContext, scale: Double) {
        func point(_ p: SIMD2<Double>) -> CGPoint { CGPoint(x: p.x * scale, y: p.y * scale) }
        func color(_ c: RGBColor) -> Color { Color(red: c.red, green: c.green, blue: c.blue) }
        func style(_ s: Stroke) -> StrokeStyle {
            StrokeStyle(lineWidth: s.width * scale, dash: s.dash.map { CGFloat($0 * scale) })
        }
        switch element {
        case .line(let a, let b, let stroke):
            var path = Path()
            path.move(to: point(a))
            path.addLine(to: point(b))
            context.stroke(path, with: .color(color(stroke.color)), style: style(stroke))
        case .path(let points, let closed, let stroke, let fill):
            var path = Path()
            path.addLines(points.map(point))
            if closed { path.closeSubpath() }
            if let fill { context.fill(path, with: .color(color(fill))) }
            if let stroke { context.stroke(path, with: .color(color(stroke.color)), style: style(stroke)) }
        case .rectangle(let origin, let size, let stroke, let fill):
            let path = Path(CGRect(x: origin.x * scale, y: origin.y * scale, width: size.x * scale, height: size.y * scale))
            if let fill { context.fill(path, with: .color(color(fill))) }
            if let stroke { context.stroke(path, with: .color(color(stroke.color)), style: style(stroke)) }
        case .text(let string, let at, let size, let textColor, let anchor, let bold):
            // Drawings place text on its baseline; the bottom of SwiftUI's text box is close.
            let unit: UnitPoint =
                switch anchor {
                case .start: .bottomLeading
                case .middle: .bottom
                case .end: .bottomTrailing
                }
            let text = Text(string).font(.system(size: size * scale, weight: bold ? .bold : .regular)).foregroundColor(color(textColor))
            context.draw(text, at: point(at), anchor: unit)
        }
    }
}
