/// A cursor down A4 pages that starts a new page when a block does not fit.
package struct PageFlow {
    package var document: PDFDocument
    package var canvas = PDFCanvas()
    package var y: Double
    package let margin = 50.0
    package var contentWidth: Double { PDFDocument.a4.x - 2 * margin }
    package let accent = RGBColor(hex: 0x1F4E79)
    package let grey = RGBColor(hex: 0x555555)

    package init(title: String) {
        document = PDFDocument(title: title)
        y = margin
    }

    package mutating func ensure(_ height: Double) {
        guard y + height > PDFDocument.a4.y - margin else { return }
        document.add(canvas)
        canvas = PDFCanvas()
        y = margin
    }

    package mutating func heading(_ text: String, size: Double = 13) {
        ensure(size * 2.2)
        y += size
        canvas.text(text, x: margin, y: y, size: size, font: .bold, color: accent)
        y += size * 0.5
        if size > 15 { canvas.line(SIMD2(margin, y), SIMD2(margin + contentWidth, y), Stroke(accent, width: 1.5)) }
        y += size * 0.6
    }

    package mutating func factColumns(_ columns: [(String, [ReportFact])]) {
        let columnWidth = contentWidth / Double(columns.count)
        let rows = columns.map(\.1.count).max() ?? 0
        ensure(Double(rows) * 14 + 30)
        let top = y
        var bottom = y
        for (index, (title, facts)) in columns.enumerated() {
            let x = margin + Double(index) * columnWidth
            var rowY = top + 12
            canvas.text(title, x: x, y: rowY, size: 11, font: .bold, color: accent)
            for fact in facts {
                rowY += 14
                canvas.text(fact.label, x: x, y: rowY, size: 9, color: grey)
                canvas.text(fact.value, x: x + 95, y: rowY, size: 9, font: .bold)
            }
            bottom = max(bottom, rowY)
        }
        y = bottom + 10
    }

    package mutating func facts(_ facts: [ReportFact]) {
        for fact in facts {
            let lines = PDFCanvas.wrap(fact.value, width: contentWidth - 130, size: 9, font: .bold)
            ensure(Double(lines.count) * 12 + 2)
            y += 12
            canvas.text(fact.label, x: margin, y: y, size: 9, color: grey)
            canvas.paragraph(fact.value, x: margin + 130, y: y, width: contentWidth - 130, size: 9, font: .bold, leading: 1.33)
            y += Double(lines.count - 1) * 12
        }
        y += 6
    }

    package mutating func list(_ title: String, _ items: [String], color: RGBColor = .black) {
        guard !items.isEmpty else { return }
        heading(title)
        for item in items {
            let lines = PDFCanvas.wrap(item, width: contentWidth - 12, size: 9.5, font: .regular)
            ensure(Double(lines.count) * 12.8 + 2)
            y += 10
            canvas.text("•", x: margin, y: y, size: 9.5, color: color)
            y += canvas.paragraph(item, x: margin + 12, y: y, width: contentWidth - 12, size: 9.5, color: color) - 12.8 + 3
        }
        y += 6
    }

    package mutating func figure(_ title: String, _ drawing: Drawing, width: Double, caption: String?) {
        let height = drawing.size.y * width / drawing.size.x
        let captionLines = caption.map { PDFCanvas.wrap($0, width: contentWidth, size: 8.5, font: .regular).count } ?? 0
        ensure(height + 40 + Double(captionLines) * 11.5)
        heading(title)
        canvas.draw(drawing, x: margin + (contentWidth - width) / 2, y: y, width: width)
        y += height + 6
        if let caption {
            y += 9
            y += canvas.paragraph(caption, x: margin, y: y, width: contentWidth, size: 8.5, color: grey)
        }
        y += 4
    }

    /// A drawing without a heading, centred.
    package mutating func drawing(_ drawing: Drawing, width: Double) {
        let height = drawing.size.y * width / drawing.size.x
        ensure(height + 6)
        canvas.draw(drawing, x: margin + (contentWidth - width) / 2, y: y, width: width)
        y += height + 6
    }

    package mutating func finish() -> PDFDocument {
        document.add(canvas)
        return document
    }
}
