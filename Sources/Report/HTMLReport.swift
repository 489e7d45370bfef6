/// Writes a `ClinicalReport` as one self-contained HTML page: inline CSS and SVG, no scripts,
/// nothing fetched from the network, so it opens anywhere and can be archived as is.
public enum HTMLReport {
    /// The page's text.
    public static func render(_ report: ClinicalReport) -> String {
        var html = HTMLPieces.pageStart(title: report.title, style: style) + """
            <div class="facts">
            \(HTMLPieces.facts("Patient", report.patient))
            \(HTMLPieces.facts("Scan", report.scan))
            </div>

            """
        html += severity(report)
        html += valuesTable(report)
        html += HTMLPieces.list("Warnings", report.warnings, cssClass: "warnings")
        html += HTMLPieces.list("Notes", report.notes, cssClass: "notes")
        html += "<h2>Measured slice</h2>\n<figure class=\"slice\">" + SVGRenderer.render(report.slice, title: "Measured slice with diagonals A and B")
        html += "<figcaption>Seen from above, nose up. Diagonals at 30° from the mid-sagittal axis; dashed red: holes in the scan bridged by straight lines.</figcaption></figure>\n"
        if let timeline = report.timeline {
            html += "<h2>Feedback during the scan</h2>\n<figure class=\"timeline\">" + SVGRenderer.render(timeline, title: "Position and progress over the scan") + "</figure>\n"
            html += HTMLPieces.facts(nil, report.timelineFacts)
        }
        if let trend = report.trend {
            html += "<h2>Visits of this patient</h2>\n<figure class=\"timeline\">" + SVGRenderer.render(trend, title: "CVAI over the patient's visits") + "</figure>\n"
            html += HTMLPieces.list("Visit values", report.visitLines, cssClass: "visits")
        }
        html += HTMLPieces.list("The 3D model", report.meshHelp, cssClass: "mesh")
        return html + "</body>\n</html>\n"
    }

    private static func severity(_ report: ClinicalReport) -> String {
        let level = report.severity
        return "<p class=\"severity\"><span class=\"badge\" style=\"background:\(level.color.hexString)\">CHOA level \(level.rawValue)</span> "
            + e(level.meaning) + " Flattened side: " + e(report.flattenedSide) + ".</p>\n"
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

    private static let style = HTMLPieces.baseStyle + """

        .facts{display:flex;gap:3em;flex-wrap:wrap}table.values{border-collapse:collapse;min-width:60%}
        .values th,.values td{border-bottom:1px solid #ddd;padding:.3em .8em;text-align:right}.values th:first-child{text-align:left}
        .values tbody th{font-weight:normal}.unit{color:#777}.badge{color:#fff;padding:.2em .6em;border-radius:.3em;font-weight:700}
        .severity{font-size:1.1em}figure.slice svg{max-width:420px;width:100%}
        figure.timeline svg{width:100%}figcaption{color:#555;font-size:.9em}
        """
}
