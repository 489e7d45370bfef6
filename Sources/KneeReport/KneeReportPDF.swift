import ReportKit

/// Writes a `KneeReport` as an A4 PDF with the same content as the HTML page.
public enum KneeReportPDF {
    /// The file's bytes; pass `creationDate` (`D:YYYYMMDDHHmmSS`) to stamp it.
    public static func render(_ report: KneeReport, creationDate: String? = nil) -> [UInt8] {
        var layout = PageFlow(title: report.title)
        layout.heading(report.title, size: 20)
        layout.facts(report.facts)
        layout.outcome(report)
        layout.heading("Neutral-zero form (lower limbs)")
        layout.table(
            ["Joint", "Movement", "Right", "Left"], widths: [130, 190, 87, 88],
            rows: [[report.form.joint, report.form.movement, report.form.right, report.form.left]], boldColumns: [2, 3])
        if !report.values.isEmpty {
            layout.heading("Values")
            layout.facts(report.values)
        }
        layout.list("Warnings", report.warnings, color: RGBColor(hex: 0xAA3333))
        layout.sideBySide("Smallest and largest angle", [report.minimumFigure, report.maximumFigure].compactMap { $0 }, width: 150)
        layout.figure("Knee angle over the video", report.chart, width: layout.contentWidth, caption: nil)
        layout.ensure(110)
        layout.heading("Quality checks")
        layout.facts(report.quality)
        layout.list("Rejected frames", report.rejections)
        if !report.history.isEmpty {
            layout.heading("Earlier results")
            layout.table(
                ["Date", "Side", "Extension/flexion", "Frames passed"], widths: [140, 80, 150, 125], rows: report.history, boldColumns: [2])
        }
        layout.list("How to read this report", report.notes)
        return layout.finish().encoded(creationDate: creationDate)
    }
}

/// The knee report's own blocks.
private extension PageFlow {
    mutating func outcome(_ report: KneeReport) {
        let color = report.accepted ? RGBColor(hex: 0x2B8A3E) : RGBColor(hex: 0xAA3333)
        let lines = PDFCanvas.wrap(report.outcome, width: contentWidth - 16, size: 11, font: .bold)
        let height = Double(lines.count) * 14.5 + 10
        ensure(height + 8)
        y += 4
        canvas.rectangle(
            x: margin, y: y, width: contentWidth, height: height, fill: report.accepted ? RGBColor(hex: 0xE6F4EA) : RGBColor(hex: 0xFDECEA))
        canvas.paragraph(report.outcome, x: margin + 8, y: y + 16, width: contentWidth - 16, size: 11, font: .bold, color: color, leading: 1.32)
        y += height + 6
    }

    /// A ruled table; `widths` in points, text in `boldColumns` bold and larger.
    mutating func table(_ header: [String], widths: [Double], rows: [[String]], boldColumns: Set<Int>) {
        let rule = Stroke(RGBColor(hex: 0xBBBBBB), width: 0.6)
        ensure(Double(rows.count + 1) * 18 + 8)
        func row(_ cells: [String], bold: Bool) {
            var x = margin
            for (i, cell) in cells.enumerated() {
                let big = !bold && boldColumns.contains(i)
                canvas.text(cell, x: x + 5, y: y + 13, size: big ? 11 : 9.5, font: bold || big ? .bold : .regular)
                canvas.rectangle(x: x, y: y, width: widths[i], height: 18, stroke: rule)
                x += widths[i]
            }
            y += 18
        }
        row(header, bold: true)
        for cells in rows { row(cells, bold: false) }
        y += 8
    }

    /// Drawings of equal width next to each other under one heading.
    mutating func sideBySide(_ title: String, _ drawings: [Drawing], width: Double) {
        guard !drawings.isEmpty else { return }
        let height = drawings.map { $0.size.y * width / $0.size.x }.max()!
        ensure(height + 40)
        heading(title)
        for (i, drawing) in drawings.enumerated() {
            canvas.draw(drawing, x: margin + Double(i) * (width + 20), y: y, width: width)
        }
        y += height + 10
    }
}
