/// A colour as red, green and blue in 0...1.
public struct RGBColor: Sendable, Equatable, Hashable {
    public var red: Double
    public var green: Double
    public var blue: Double

    /// A colour from 0...1 components.
    public init(_ red: Double, _ green: Double, _ blue: Double) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// A colour from a 0xRRGGBB value, the form CSS and design tools use.
    public init(hex: UInt32) {
        self.init(Double((hex >> 16) & 0xFF) / 255, Double((hex >> 8) & 0xFF) / 255, Double(hex & 0xFF) / 255)
    }

    /// `#rrggbb`, for SVG and CSS.
    public var hexString: String {
        func byte(_ v: Double) -> Int { Int((min(1, max(0, v)) * 255).rounded()) }
        let value = byte(red) << 16 | byte(green) << 8 | byte(blue)
        let digits = String(value, radix: 16)
        return "#" + String(repeating: "0", count: 6 - digits.count) + digits
    }

    public static let black = RGBColor(0, 0, 0)
    public static let white = RGBColor(1, 1, 1)
}

/// How a line or outline is drawn.
public struct Stroke: Sendable, Equatable {
    public var color: RGBColor
    /// Line width in drawing units.
    public var width: Double
    /// Dash and gap lengths in drawing units; empty for a solid line.
    public var dash: [Double]

    /// A stroke; solid unless `dash` is given.
    public init(_ color: RGBColor, width: Double, dash: [Double] = []) {
        self.color = color
        self.width = width
        self.dash = dash
    }
}

/// Where a text's anchor point sits along the text.
public enum TextAnchor: Sendable, Equatable {
    case start, middle, end
}

/// One thing drawn.
public enum DrawingElement: Sendable, Equatable {
    /// A straight line.
    case line(SIMD2<Double>, SIMD2<Double>, Stroke)
    /// A chain of straight segments, closed back to its start when `closed`; filled when
    /// `fill` is given.
    case path([SIMD2<Double>], closed: Bool, stroke: Stroke?, fill: RGBColor?)
    /// An axis-aligned rectangle from its top-left corner and size.
    case rectangle(origin: SIMD2<Double>, size: SIMD2<Double>, stroke: Stroke?, fill: RGBColor?)
    /// A line of text; `position` is on the baseline.
    case text(String, at: SIMD2<Double>, size: Double, color: RGBColor, anchor: TextAnchor, bold: Bool)
}

/// A small vector picture in its own units, y running down, drawn the same way into SVG
/// (the HTML report) and into PDF (the filed report), so both show the same thing.
public struct Drawing: Sendable, Equatable {
    /// Width and height in drawing units.
    public var size: SIMD2<Double>
    /// Elements in painting order.
    public var elements: [DrawingElement] = []

    /// An empty drawing of `size` units.
    public init(width: Double, height: Double) {
        size = SIMD2(width, height)
    }

    public mutating func line(_ a: SIMD2<Double>, _ b: SIMD2<Double>, _ stroke: Stroke) {
        elements.append(.line(a, b, stroke))
    }

    public mutating func path(_ points: [SIMD2<Double>], closed: Bool = false, stroke: Stroke? = nil, fill: RGBColor? = nil) {
        elements.append(.path(points, closed: closed, stroke: stroke, fill: fill))
    }

    public mutating func rectangle(x: Double, y: Double, width: Double, height: Double, stroke: Stroke? = nil, fill: RGBColor? = nil) {
        elements.append(.rectangle(origin: SIMD2(x, y), size: SIMD2(width, height), stroke: stroke, fill: fill))
    }

    public mutating func text(
        _ string: String, x: Double, y: Double, size: Double, color: RGBColor = .black,
        anchor: TextAnchor = .start, bold: Bool = false
    ) {
        elements.append(.text(string, at: SIMD2(x, y), size: size, color: color, anchor: anchor, bold: bold))
    }

    /// Every text in the drawing, in painting order (what a reader of the PDF can extract).
    public var texts: [String] {
        elements.compactMap { if case .text(let s, _, _, _, _, _) = $0 { s } else { nil } }
    }
}

extension Drawing {
    /// `drawings` in one row, each scaled to the tallest's height, `gap` units apart.
    public static func row(_ drawings: [Drawing], gap: Double) -> Drawing {
        let height = drawings.map(\.size.y).max() ?? 0
        var x = 0.0
        var row = Drawing(width: 0, height: height)
        for d in drawings {
            let scale = d.size.y > 0 ? height / d.size.y : 1
            row.elements += d.elements.map { $0.placed(at: SIMD2(x, 0), scale: scale) }
            x += d.size.x * scale + gap
        }
        row.size.x = max(0, x - gap)
        return row
    }
}

extension DrawingElement {
    /// The element moved by `offset` after scaling by `scale`.
    package func placed(at offset: SIMD2<Double>, scale: Double) -> DrawingElement {
        func p(_ q: SIMD2<Double>) -> SIMD2<Double> { q * scale + offset }
        func s(_ stroke: Stroke?) -> Stroke? {
            stroke.map { Stroke($0.color, width: $0.width * scale, dash: $0.dash.map { $0 * scale }) }
        }
        switch self {
        case .line(let a, let b, let stroke):
            return .line(p(a), p(b), s(stroke) ?? stroke)
        case .path(let points, let closed, let stroke, let fill):
            return .path(points.map(p), closed: closed, stroke: s(stroke), fill: fill)
        case .rectangle(let origin, let size, let stroke, let fill):
            return .rectangle(origin: p(origin), size: size * scale, stroke: s(stroke), fill: fill)
        case .text(let string, let at, let size, let color, let anchor, let bold):
            return .text(string, at: p(at), size: size * scale, color: color, anchor: anchor, bold: bold)
        }
    }
}
