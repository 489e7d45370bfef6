import ReportKit

/// Writes a `KneeReport` as one self-contained HTML page (inline CSS and SVG, no scripts).
public enum KneeReportHTML {
    public static func render(_ report: KneeReport) -> String {
        var html =
            HTMLPieces.pageStart(title: report.title, style: style) + """
                \(HTMLPieces.facts(nil, report.facts))
                <p class="outcome \(report.accepted ? "ok" : "refused")">\(e(report.outcome))</p>

                """
        html += form(report.form)
        html += HTMLPieces.facts("Values", report.values)
        html += HTMLPieces.list("Warnings", report.warnings, cssClass: "warnings")
        html += figures(report)
        html +=
            "<h2>Knee angle over the video</h2>\n<figure class=\"chart\">" + SVGRenderer.render(report.chart, title: "Knee angle over time")
            + "</figure>\n"
        html += HTMLPieces.facts("Quality checks", report.quality)
        html += HTMLPieces.list("Rejected frames", report.rejections, cssClass: "rejections")
        html += history(report.history)
        html += HTMLPieces.list("How to read this report", report.notes, cssClass: "notes")
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
        let drawings = [(report.minimumFigure, "Most bent frame"), (report.maximumFigure, "Straightest frame")].compactMap { d, t in d.map { ($0, t) }
        }
        guard !drawings.isEmpty else { return "" }
        return "<h2>Smallest and largest angle</h2>\n<div class=\"figures\">"
            + drawings.map { "<figure>" + SVGRenderer.render($0.0, title: $0.1) + "</figure>" }.joined() + "</div>\n"
    }

    private static func history(_ rows: [[String]]) -> String {
        guard !rows.isEmpty else { return "" }
        var html =
            "<h2>Earlier results</h2>\n<table class=\"history\"><thead><tr><th>Date</th><th>Side</th><th>Extension/flexion</th><th>Frames passed</th></tr></thead><tbody>"
        for row in rows { html += "<tr>" + row.map { "<td>\(e($0))</td>" }.joined() + "</tr>" }
        return html + "</tbody></table>\n"
    }

    private static func e(_ text: String) -> String { HTMLPieces.e(text) }

    private static let style =
        HTMLPieces.baseStyle + """

            .outcome{font-size:1.1em;font-weight:600;padding:.4em .7em;border-radius:.3em}.ok{background:#e6f4ea}.refused{background:#fdecea;color:#a33}
            table{border-collapse:collapse;min-width:60%}th,td{border:1px solid #ccc;padding:.35em .8em;text-align:left}
            td.v{font-size:1.2em;font-weight:700;text-align:center;min-width:6em}
            .figures{display:flex;gap:1em;flex-wrap:wrap}.figures svg{width:220px}figure.chart svg{width:100%}
            """
}
