import ReportKit

/// Writes a `ClinicalReport` as one self-contained HTML page: inline CSS and SVG, no scripts,
/// nothing fetched from the network, so it opens anywhere and can be archived as is.
public enum HTMLReport {
    /// The page's text.
    public static func render(_ report: ClinicalReport) -> String {
        var html =
            HTMLPieces.pageStart(title: report.title, style: style) + """
                <div class="facts">
                \(HTMLPieces.facts("Patient", report.patient))
                \(HTMLPieces.facts("Scan", report.scan))
                </div>

                """
        html += severity(report)
        html += assessment(report)
        html += valuesTable(report)
        html += HTMLPieces.list("Warnings", report.warnings, cssClass: "warnings")
        html += HTMLPieces.list("Notes", report.notes + report.meshHelp, cssClass: "notes")
        html += "<h2>" + (report.asymmetry == nil ? "Measured slice" : "Measured slice and asymmetry map") + "</h2>\n"
        html +=
            "<figure class=\"" + (report.asymmetry == nil ? "slice" : "shape") + "\">"
            + SVGRenderer.render(
                report.shapeFigure,
                title: "Measured slice with diagonals A and B"
                    + (report.asymmetry == nil ? "" : ", and the head against its mirror image from above and from behind"))
        html += "<figcaption>" + e(report.shapeCaption) + "</figcaption></figure>\n"
        if let timeline = report.timeline {
            html +=
                "<h2>Feedback during the scan</h2>\n<figure class=\"timeline feedback\">"
                + SVGRenderer.render(timeline, title: "Position and progress over the scan")
            html +=
                "<figcaption>" + e(report.timelineFacts.map { "\($0.label): \($0.value)" }.joined(separator: "; ") + ".") + "</figcaption></figure>\n"
        }
        if let trend = report.trend {
            html +=
                "<h2>Visits of this patient</h2>\n<figure class=\"timeline\">" + SVGRenderer.render(trend, title: "CVAI over the patient's visits")
                + "</figure>\n"
            if let panels = report.trendPanels {
                html +=
                    "<figure class=\"timeline\">" + SVGRenderer.render(panels, title: "Further measures over the patient's visits") + "</figure>\n"
            }
            html += "<p class=\"visits\">" + e(report.visitLines.joined(separator: "; ")) + "</p>\n"
        }
        return html + "</body>\n</html>\n"
    }

    private static func severity(_ report: ClinicalReport) -> String {
        let level = report.severity
        return "<p class=\"severity\"><span class=\"badge\" style=\"background:\(level.color.hexString)\">CHOA level \(level.rawValue)</span> "
            + e(level.meaning) + " Flattened side: " + e(report.flattenedSide) + ".</p>\n"
    }

    private static func assessment(_ report: ClinicalReport) -> String {
        var html = "<section class=\"assessment\"><p><strong>\(e(report.assessmentTitle))</strong> \(e(report.assessment.clinicianText))</p>"
        html += "<p class=\"parent\">For the parents: \(e(report.assessment.parentText))</p>"
        if !report.assessment.specialistReasons.isEmpty {
            html +=
                "<p class=\"refer\">A specialist should look at this head: " + e(report.assessment.specialistReasons.joined(separator: "; "))
                + ".</p>"
        }
        return html + "</section>\n"
    }

    private static func valuesTable(_ report: ClinicalReport) -> String {
        var html = "<h2>Values</h2>\n<table class=\"values\">\n<thead><tr><th>Measure</th>"
        html += report.columns.map { "<th>\(e($0))</th>" }.joined() + "</tr></thead>\n<tbody>\n"
        for row in report.rows {
            let unit = row.unit.isEmpty ? "" : " <span class=\"unit\">(\(e(row.unit)))</span>"
            html += "<tr><th>\(e(row.name))\(unit)</th>" + row.values.map { "<td>\(e($0 ?? "–"))</td>" }.joined() + "</tr>\n"
        }
        return html + "</tbody>\n</table>\n"
    }

    private static func e(_ text: String) -> String { HTMLPieces.e(text) }

    private static let style =
        HTMLPieces.baseStyle + """

            .facts{display:flex;gap:3em;flex-wrap:wrap}table.values{border-collapse:collapse;min-width:60%}
            .values th,.values td{border-bottom:1px solid #ddd;padding:.3em .8em;text-align:right}.values th:first-child{text-align:left}
            .values tbody th{font-weight:normal}.unit{color:#777}.badge{color:#fff;padding:.2em .6em;border-radius:.3em;font-weight:700}
            .severity{font-size:1.1em}figure.slice svg{max-width:420px;width:100%}figure.shape svg{width:100%}figure.feedback svg{max-width:80%}
            @page{size:A4;margin:14mm}
            @media print{body{margin:0;max-width:none;font-size:9pt;line-height:1.3}h1{font-size:15pt}h2{font-size:11pt;margin:.7em 0 .3em;break-after:avoid}
            .values th,.values td{padding:.08em .6em}figure{break-inside:avoid}figure.timeline svg,figure.feedback svg{max-width:70%}ul{margin:.2em 0}}
            .parent{color:#444}.refer{color:#a33;font-weight:600}
            figure.timeline svg{width:100%}figcaption{color:#555;font-size:.9em}
            """
}
