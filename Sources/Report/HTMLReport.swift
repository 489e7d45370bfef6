/// Writes a `ClinicalReport` as one self-contained HTML page: inline CSS and SVG, no scripts,
/// nothing fetched from the network, so it opens anywhere and can be archived as is.
public enum HTMLReport {
    /// The page's text.
    public static func render(_ report: ClinicalReport) -> String {
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(e(report.title))</title>
            <style>\(style)</style>
            </head>
            <body>
            <h1>\(e(report.title))</h1>
            <div class="facts">
            \(facts("Patient", report.patient))
            \(facts("Scan", report.scan))
            </div>

            """
        html += severity(report)
        html += valuesTable(report)
        html += list("Warnings", report.warnings, cssClass: "warnings")
        html += list("Notes", report.notes, cssClass: "notes")
        html += "<h2>Measured slice</h2>\n<figure class=\"slice\">" + SVGRenderer.render(report.slice, title: "Measured slice with diagonals A and B")
        html += "<figcaption>Seen from above, nose up. Diagonals at 30° from the mid-sagittal axis; dashed red: holes in the scan bridged by straight lines.</figcaption></figure>\n"
        if let timeline = report.timeline {
            html += "<h2>Feedback during the scan</h2>\n<figure class=\"timeline\">" + SVGRenderer.render(timeline, title: "Position and progress over the scan") + "</figure>\n"
            html += facts(nil, report.timelineFacts)
        }
        if let trend = report.trend {
            html += "<h2>Visits of this patient</h2>\n<figure class=\"timeline\">" + SVGRenderer.render(trend, title: "CVAI over the patient's visits") + "</figure>\n"
            html += list("Visit values", report.visitLines, cssClass: "visits")
        }
        html += list("The 3D model", report.meshHelp, cssClass: "mesh")
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

    private static func facts(_ heading: String?, _ facts: [ReportFact]) -> String {
        var html = "<section>" + (heading.map { "<h2>\(e($0))</h2>" } ?? "") + "<dl>"
        for fact in facts { html += "<dt>\(e(fact.label))</dt><dd>\(e(fact.value))</dd>" }
        return html + "</dl></section>"
    }

    private static func list(_ heading: String, _ items: [String], cssClass: String) -> String {
        guard !items.isEmpty else { return "" }
        return "<section class=\"\(cssClass)\"><h2>\(e(heading))</h2><ul>" + items.map { "<li>\(e($0))</li>" }.joined() + "</ul></section>\n"
    }

    private static func e(_ text: String) -> String { HTMLText.escape(text) }

    private static let style = """
        body{font-family:Helvetica,Arial,sans-serif;color:#222;max-width:860px;margin:2em auto;padding:0 1em;line-height:1.4}
        h1{font-size:1.6em;border-bottom:2px solid #1f4e79;padding-bottom:.2em}h2{font-size:1.15em;color:#1f4e79;margin-top:1.4em}
        .facts{display:flex;gap:3em;flex-wrap:wrap}dl{display:grid;grid-template-columns:max-content auto;gap:.2em 1em;margin:0}
        dt{color:#555}dd{margin:0;font-weight:600}table.values{border-collapse:collapse;min-width:60%}
        .values th,.values td{border-bottom:1px solid #ddd;padding:.3em .8em;text-align:right}.values th:first-child{text-align:left}
        .values tbody th{font-weight:normal}.unit{color:#777}.badge{color:#fff;padding:.2em .6em;border-radius:.3em;font-weight:700}
        .severity{font-size:1.1em}.warnings li{color:#a33}figure{margin:0}figure.slice svg{max-width:420px;width:100%}
        figure.timeline svg{width:100%}figcaption{color:#555;font-size:.9em}
        @media (prefers-color-scheme: dark){body{background:#fff}}
        """
}
