/// Writes a `KneeReport` as one self-contained HTML page (inline CSS and SVG, no scripts).
public enum KneeReportHTML {
    public static func render(_ report: KneeReport) -> String {
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
            \(facts(nil, report.facts))
            <p class="outcome \(report.accepted ? "ok" : "refused")">\(e(report.outcome))</p>

            """
        html += form(report.form)
        html += facts("Values", report.values)
        html += list("Warnings", report.warnings, cssClass: "warnings")
        html += figures(report)
        html += "<h2>Knee angle over the video</h2>\n<figure class=\"chart\">" + SVGRenderer.render(report.chart, title: "Knee angle over time") + "</figure>\n"
        html += facts("Quality checks", report.quality)
        html += list("Rejected frames", report.rejections, cssClass: "rejections")
        html += history(report.history)
        html += list("How to read this report", report.notes, cssClass: "notes")
        return html + "</body>\n</html>\n"
    }

    private static func form(_ row: NeutralZeroRow) -> String {
        """
        <h2>Neutral-zero form (lower limbs)</h2>
        <table class="form"><thead><tr><th>Joint</th><th>Movement</th><th>Right</th><th>Left</th></tr></thead>
        <tbody><tr><td>\(e(row.joint))</td><td>\(e(row.movement))</td><td class="v">\(e(row.right))</td><td class="v">\(e(row.left))</td></tr></tbody></table>

        """
    }

    private static func figures(_ report: KneeReport) -> String {
        let drawings = [(report.minimumFigure, "Most bent frame"), (report.maximumFigure, "Straightest frame")].compactMap { d, t in d.map { ($0, t) } }
        guard !drawings.isEmpty else { return "" }
        return "<h2>Smallest and largest angle</h2>\n<div class=\"figures\">"
            + drawings.map { "<figure>" + SVGRenderer.render($0.0, title: $0.1) + "</figure>" }.joined() + "</div>\n"
    }

    private static func history(_ rows: [[String]]) -> String {
        guard !rows.isEmpty else { return "" }
        var html = "<h2>Earlier results</h2>\n<table class=\"history\"><thead><tr><th>Date</th><th>Side</th><th>Extension/flexion</th><th>Frames passed</th></tr></thead><tbody>"
        for row in rows { html += "<tr>" + row.map { "<td>\(e($0))</td>" }.joined() + "</tr>" }
        return html + "</tbody></table>\n"
    }

    private static func facts(_ heading: String?, _ facts: [ReportFact]) -> String {
        guard !facts.isEmpty else { return "" }
        var html = "<section>" + (heading.map { "<h2>\(e($0))</h2>" } ?? "") + "<dl>"
        for fact in facts { html += "<dt>\(e(fact.label))</dt><dd>\(e(fact.value))</dd>" }
        return html + "</dl></section>\n"
    }

    private static func list(_ heading: String, _ items: [String], cssClass: String) -> String {
        guard !items.isEmpty else { return "" }
        return "<section class=\"\(cssClass)\"><h2>\(e(heading))</h2><ul>" + items.map { "<li>\(e($0))</li>" }.joined() + "</ul></section>\n"
    }

    private static func e(_ text: String) -> String { HTMLText.escape(text) }

    private static let style = """
        body{font-family:Helvetica,Arial,sans-serif;color:#222;max-width:860px;margin:2em auto;padding:0 1em;line-height:1.4}
        h1{font-size:1.6em;border-bottom:2px solid #1f4e79;padding-bottom:.2em}h2{font-size:1.15em;color:#1f4e79;margin-top:1.4em}
        dl{display:grid;grid-template-columns:max-content auto;gap:.2em 1em;margin:0}dt{color:#555}dd{margin:0;font-weight:600}
        .outcome{font-size:1.1em;font-weight:600;padding:.4em .7em;border-radius:.3em}.ok{background:#e6f4ea}.refused{background:#fdecea;color:#a33}
        table{border-collapse:collapse;min-width:60%}th,td{border:1px solid #ccc;padding:.35em .8em;text-align:left}
        td.v{font-size:1.2em;font-weight:700;text-align:center;min-width:6em}.warnings li{color:#a33}
        .figures{display:flex;gap:1em;flex-wrap:wrap}.figures svg{width:220px}figure{margin:0}figure.chart svg{width:100%}
        @media (prefers-color-scheme: dark){body{background:#fff}}
        """
}
