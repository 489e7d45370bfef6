import ReportKit

/// Writes a `ClinicalReport` as an A4 PDF with the same content as the HTML page.
public enum PDFReport {
    /// The file's bytes; pass `creationDate` (`D:YYYYMMDDHHmmSS`) to stamp it.
    public static func render(_ report: ClinicalReport, creationDate: String? = nil) -> [UInt8] {
        var layout = PageFlow(title: report.title)
        layout.heading(report.title, size: 20)
        layout.factColumns([("Patient", report.patient), ("Scan", report.scan)])
        layout.severity(report)
        layout.assessment(report)
        layout.valuesTable(report)
        layout.list("Warnings", report.warnings, color: RGBColor(hex: 0xAA3333))
        layout.list("Notes", report.notes + report.meshHelp)
        layout.figure(
            report.asymmetry == nil ? "Measured slice" : "Measured slice and asymmetry map", report.shapeFigure,
            width: report.asymmetry == nil ? 250 : layout.contentWidth, caption: report.shapeCaption)
        if let timeline = report.timeline {
            layout.figure(
                "Feedback during the scan", timeline, width: layout.contentWidth * 0.7,
                caption: report.timelineFacts.map { "\($0.label): \($0.value)" }.joined(separator: "; ") + ".")
        }
        if let trend = report.trend {
            layout.figure("Visits of this patient", trend, width: layout.contentWidth * 0.7, caption: nil)
            if let panels = report.trendPanels { layout.drawing(panels, width: layout.contentWidth) }
            layout.paragraphLine(report.visitLines.joined(separator: "; "), font: .regular)
        }
        return layout.finish().encoded(creationDate: creationDate)
    }
}

/// The head report's own blocks.
private extension PageFlow {
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

    mutating func assessment(_ report: ClinicalReport) {
        let a = report.assessment
        paragraphLine(report.assessmentTitle + " " + a.clinicianText, font: .bold)
        paragraphLine("For the parents: " + a.parentText, font: .regular)
        if !a.specialistReasons.isEmpty {
            paragraphLine(
                "A specialist should look at this head: " + a.specialistReasons.joined(separator: "; ") + ".", font: .bold,
                color: RGBColor(hex: 0xAA3333))
        }
    }

    mutating func paragraphLine(_ text: String, font: PDFFont, color: RGBColor = .black) {
        let lines = PDFCanvas.wrap(text, width: contentWidth, size: 9.5, font: font)
        ensure(Double(lines.count) * 12.8 + 4)
        y += 10
        y += canvas.paragraph(text, x: margin, y: y, width: contentWidth, size: 9.5, font: font, color: color) - 12.8 + 4
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
}
