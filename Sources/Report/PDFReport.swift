/// Writes a `ClinicalReport` as an A4 PDF with the same content as the HTML page.
public enum PDFReport {
    /// The file's bytes; pass `creationDate` (`D:YYYYMMDDHHmmSS`) to stamp it.
    public static func render(_ report: ClinicalReport, creationDate: String? = nil) -> [UInt8] {
        var layout = PageFlow(title: report.title)
        layout.heading(report.title, size: 20)
        layout.factColumns([("Patient", report.patient), ("Scan", report.scan)])
        layout.severity(report)
        layout.valuesTable(report)
        layout.list("Warnings", report.warnings, color: RGBColor(hex: 0xAA3333))
        layout.list("Notes", report.notes)
        layout.figure("Measured slice", report.slice, width: 250,
                      caption: "Seen from above, nose up. Diagonals at 30° from the mid-sagittal axis; dashed red: holes in the scan bridged by straight lines.")
        if let timeline = report.timeline {
            layout.figure("Feedback during the scan", timeline, width: layout.contentWidth, caption: nil)
            layout.facts(report.timelineFacts)
        }
        if let trend = report.trend {
            layout.figure("Visits of this patient", trend, width: layout.contentWidth, caption: nil)
            layout.list("Visit values", report.visitLines)
        }
        layout.list("The 3D model", report.meshHelp)
        return layout.finish().encoded(creationDate: creationDate)
    }
}

/// A cursor down A4 pages that starts a new page when a block does not fit.
private struct PageFlow {
    var document: PDFDocument
    var canvas = PDFCanvas()
    var y: Double
    let margin = 50.0
    var contentWidth: Double { PDFDocument.a4.x - 2 * margin }
    let accent = RGBColor(hex: 0x1F4E79)
    let grey = RGBColor(hex: 0x555555)

    init(title: String) {
        document = PDFDocument(title: title)
        y = margin
    }

    mutating func ensure(_ height: Double) {
        guard y + height > PDFDocument.a4.y - margin else { return }
        document.add(canvas)
        canvas = PDFCanvas()
        y = margin
    }

    mutating func heading(_ text: String, size: Double = 13) {
        ensure(size * 2.2)
        y += size
        canvas.text(text, x: margin, y: y, size: size, font: .bold, color: accent)
        y += size * 0.5
        if size > 15 { canvas.line(SIMD2(margin, y), SIMD2(margin + contentWidth, y), Stroke(accent, width: 1.5)) }
        y += size * 0.6
    }

    mutating func factColumns(_ columns: [(String, [ReportFact])]) {
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

    mutating func facts(_ facts: [ReportFact]) {
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

    mutating func severity(_ report: ClinicalReport) {
        ensure(40)
        y += 8
        let badge = "CHOA level \(report.severity.rawValue)"
        let badgeWidth = PDFFont.bold.width(of: badge, size: 11) + 12
        canvas.rectangle(x: margin, y: y, width: badgeWidth, height: 18, fill: report.severity.color)
        canvas.text(badge, x: margin + 6, y: y + 13, size: 11, font: .bold, color: .white)
        let text = report.severity.meaning + " Flattened side: " + report.flattenedSide + "."
        let used = canvas.paragraph(text, x: margin + badgeWidth + 8, y: y + 13, width: contentWidth - badgeWidth - 8, size: 10)
        y += max(22, used + 8)
    }

    mutating func valuesTable(_ report: ClinicalReport) {
        heading("Values")
        let nameWidth = 150.0
        let columnWidth = min(110, (contentWidth - nameWidth) / Double(max(1, report.columns.count)))
        ensure(Double(report.rows.count + 1) * 16 + 6)
        y += 12
        for (i, column) in report.columns.enumerated() {
            canvas.text(column, x: margin + nameWidth + Double(i + 1) * columnWidth - 6, y: y, size: 9.5, font: .bold, anchor: .end)
        }
        let tableRight = margin + nameWidth + Double(report.columns.count) * columnWidth
        canvas.line(SIMD2(margin, y + 4), SIMD2(tableRight, y + 4), Stroke(grey, width: 0.8))
        for row in report.rows {
            y += 16
            canvas.text(row.name + (row.unit.isEmpty ? "" : " (\(row.unit))"), x: margin, y: y, size: 9.5)
            for (i, value) in row.values.enumerated() {
                canvas.text(value ?? "–", x: margin + nameWidth + Double(i + 1) * columnWidth - 6, y: y, size: 9.5, anchor: .end)
            }
            canvas.line(SIMD2(margin, y + 4), SIMD2(tableRight, y + 4), Stroke(RGBColor(hex: 0xDDDDDD), width: 0.5))
        }
        y += 12
    }

    mutating func list(_ title: String, _ items: [String], color: RGBColor = .black) {
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

    mutating func figure(_ title: String, _ drawing: Drawing, width: Double, caption: String?) {
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

    mutating func finish() -> PDFDocument {
        document.add(canvas)
        return document
    }
}
