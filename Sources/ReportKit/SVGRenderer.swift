/// Writes a `Drawing` as an SVG element for embedding in HTML.
public enum SVGRenderer {
    /// The `<svg>` element; it scales to its container's width, keeping the aspect ratio.
    public static func render(_ drawing: Drawing, title: String? = nil) -> String {
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(n(drawing.size.x)) \(n(drawing.size.y))\" role=\"img\">"
        if let title { out += "<title>\(HTMLText.escape(title))</title>" }
        for element in drawing.elements { out += svg(element) }
        return out + "</svg>"
    }

    private static func svg(_ element: DrawingElement) -> String {
        switch element {
        case .line(let a, let b, let stroke):
            return "<line x1=\"\(n(a.x))\" y1=\"\(n(a.y))\" x2=\"\(n(b.x))\" y2=\"\(n(b.y))\"\(attributes(stroke: stroke, fill: nil))/>"
        case .path(let points, let closed, let stroke, let fill):
            let list = points.map { "\(n($0.x)),\(n($0.y))" }.joined(separator: " ")
            let tag = closed ? "polygon" : "polyline"
            return "<\(tag) points=\"\(list)\"\(attributes(stroke: stroke, fill: fill))/>"
        case .rectangle(let origin, let size, let stroke, let fill):
            return
                "<rect x=\"\(n(origin.x))\" y=\"\(n(origin.y))\" width=\"\(n(size.x))\" height=\"\(n(size.y))\"\(attributes(stroke: stroke, fill: fill))/>"
        case .text(let string, let at, let size, let color, let anchor, let bold):
            let anchorName =
                switch anchor {
                case .start: "start";
                case .middle: "middle";
                case .end: "end"
                }
            return "<text x=\"\(n(at.x))\" y=\"\(n(at.y))\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"\(n(size))\""
                + " fill=\"\(color.hexString)\" text-anchor=\"\(anchorName)\"\(bold ? " font-weight=\"bold\"" : "")>"
                + HTMLText.escape(string) + "</text>"
        }
    }

    private static func attributes(stroke: Stroke?, fill: RGBColor?) -> String {
        var out = " fill=\"\(fill?.hexString ?? "none")\""
        if let stroke {
            out += " stroke=\"\(stroke.color.hexString)\" stroke-width=\"\(n(stroke.width))\""
            if !stroke.dash.isEmpty { out += " stroke-dasharray=\"\(stroke.dash.map(n).joined(separator: ","))\"" }
        }
        return out
    }

    /// A number with at most two decimals and no trailing zeros, to keep files small.
    package static func n(_ value: Double) -> String {
        let scaled = (value * 100).rounded() / 100
        if scaled == scaled.rounded() { return String(Int(scaled)) }
        var s = String(format2: scaled)
        while s.hasSuffix("0") { s.removeLast() }
        return s
    }
}

extension String {
    /// Two decimals without Foundation's locale-dependent formatting.
    package init(format2 value: Double) {
        let negative = value < 0
        let hundredths = Int((abs(value) * 100).rounded())
        let fraction = hundredths % 100
        self = (negative && hundredths != 0 ? "-" : "") + "\(hundredths / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }
}

/// Escaping for text placed in HTML and SVG.
public enum HTMLText {
    /// `text` with the characters that HTML gives meaning to replaced by entities.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(c)
            }
        }
        return out
    }
}
