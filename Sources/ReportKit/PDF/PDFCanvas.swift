/// Draws one page. Coordinates are points from the page's top-left corner with y running
/// down, like the `Drawing`s and the HTML; the canvas turns them into PDF's bottom-up space.
public struct PDFCanvas: Sendable {
    /// Page width and height in points.
    public let pageSize: SIMD2<Double>
    /// The page's content stream so far.
    private(set) var content: [UInt8] = []

    /// A blank page of `pageSize` points.
    public init(pageSize: SIMD2<Double> = PDFDocument.a4) {
        self.pageSize = pageSize
    }

    /// A line from `a` to `b`.
    public mutating func line(_ a: SIMD2<Double>, _ b: SIMD2<Double>, _ stroke: Stroke) {
        setStroke(stroke)
        emit("\(point(a)) m \(point(b)) l S")
    }

    /// A chain of segments, closed and filled as asked.
    public mutating func path(_ points: [SIMD2<Double>], closed: Bool, stroke: Stroke?, fill: RGBColor?) {
        guard let first = points.first, stroke != nil || fill != nil else { return }
        var ops = "\(point(first)) m"
        for p in points.dropFirst() { ops += " \(point(p)) l" }
        if closed { ops += " h" }
        paint(ops, stroke: stroke, fill: closed ? fill : nil)
    }

    /// A rectangle from its top-left corner.
    public mutating func rectangle(x: Double, y: Double, width: Double, height: Double, stroke: Stroke? = nil, fill: RGBColor? = nil) {
        let bottomLeft = point(SIMD2(x, y + height))
        paint("\(bottomLeft) \(n(width)) \(n(height)) re", stroke: stroke, fill: fill)
    }

    /// One line of text with its baseline at `y`.
    public mutating func text(
        _ string: String, x: Double, y: Double, size: Double, font: PDFFont = .regular,
        color: RGBColor = .black, anchor: TextAnchor = .start
    ) {
        let width = font.width(of: string, size: size)
        let left =
            switch anchor {
            case .start: x;
            case .middle: x - width / 2;
            case .end: x - width
            }
        emit("\(rgb(color)) rg BT /\(font.resourceName) \(n(size)) Tf \(point(SIMD2(left, y))) Td \(PDFString.literal(string)) Tj ET")
    }

    /// Text wrapped at word boundaries to `width`; returns the height it took.
    @discardableResult
    public mutating func paragraph(
        _ string: String, x: Double, y: Double, width: Double, size: Double,
        font: PDFFont = .regular, color: RGBColor = .black, leading: Double = 1.35
    ) -> Double {
        let lines = Self.wrap(string, width: width, size: size, font: font)
        for (i, line) in lines.enumerated() {
            text(line, x: x, y: y + Double(i) * size * leading, size: size, font: font, color: color)
        }
        return Double(lines.count) * size * leading
    }

    /// `drawing` scaled to `width` points with its top-left corner at (`x`, `y`); returns
    /// the height it took.
    @discardableResult
    public mutating func draw(_ drawing: Drawing, x: Double, y: Double, width: Double) -> Double {
        let scale = width / drawing.size.x
        func place(_ p: SIMD2<Double>) -> SIMD2<Double> { SIMD2(x, y) + p * scale }
        func scaled(_ s: Stroke?) -> Stroke? { s.map { Stroke($0.color, width: $0.width * scale, dash: $0.dash.map { $0 * scale }) } }
        for element in drawing.elements {
            switch element {
            case .line(let a, let b, let stroke):
                line(place(a), place(b), scaled(stroke)!)
            case .path(let points, let closed, let stroke, let fill):
                path(points.map(place), closed: closed, stroke: scaled(stroke), fill: fill)
            case .rectangle(let origin, let size, let stroke, let fill):
                let o = place(origin)
                rectangle(x: o.x, y: o.y, width: size.x * scale, height: size.y * scale, stroke: scaled(stroke), fill: fill)
            case .text(let string, let at, let size, let color, let anchor, let bold):
                let p = place(at)
                text(string, x: p.x, y: p.y, size: size * scale, font: bold ? .bold : .regular, color: color, anchor: anchor)
            }
        }
        return drawing.size.y * scale
    }

    /// Splits `string` into lines no wider than `width`; a single word wider than that
    /// keeps its own line.
    public static func wrap(_ string: String, width: Double, size: Double, font: PDFFont) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in string.split(separator: " ", omittingEmptySubsequences: true) {
            let candidate = current.isEmpty ? String(word) : current + " " + word
            if font.width(of: candidate, size: size) <= width || current.isEmpty {
                current = candidate
            } else {
                lines.append(current)
                current = String(word)
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    private mutating func paint(_ ops: String, stroke: Stroke?, fill: RGBColor?) {
        if let stroke { setStroke(stroke) }
        if let fill { emit("\(rgb(fill)) rg") }
        let paintOperator =
            switch (stroke != nil, fill != nil) {
            case (true, true): "B"
            case (true, false): "S"
            default: "f"
            }
        emit("\(ops) \(paintOperator)")
    }

    private mutating func setStroke(_ stroke: Stroke) {
        let dash = stroke.dash.map(n).joined(separator: " ")
        emit("\(rgb(stroke.color)) RG \(n(stroke.width)) w [\(dash)] 0 d")
    }

    private func point(_ p: SIMD2<Double>) -> String { "\(n(p.x)) \(n(pageSize.y - p.y))" }
    private func rgb(_ c: RGBColor) -> String { "\(n(c.red)) \(n(c.green)) \(n(c.blue))" }
    private func n(_ v: Double) -> String { PDFNumber.format(v) }

    private mutating func emit(_ operators: String) {
        content += operators.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
        content.append(UInt8(ascii: "\n"))
    }
}
