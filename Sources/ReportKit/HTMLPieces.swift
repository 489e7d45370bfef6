/// The parts the clinical and the knee report share: a labelled list of facts, a bulleted
/// list, escaping, and the page's base style.
package enum HTMLPieces {
    /// A section of label–value pairs; nothing when there are none.
    package static func facts(_ heading: String?, _ facts: [ReportFact]) -> String {
        guard !facts.isEmpty else { return "" }
        var html = "<section>" + (heading.map { "<h2>\(e($0))</h2>" } ?? "") + "<dl>"
        for fact in facts { html += "<dt>\(e(fact.label))</dt><dd>\(e(fact.value))</dd>" }
        return html + "</dl></section>\n"
    }

    /// A section with a bulleted list; nothing when there are no items.
    package static func list(_ heading: String, _ items: [String], cssClass: String) -> String {
        guard !items.isEmpty else { return "" }
        return "<section class=\"\(cssClass)\"><h2>\(e(heading))</h2><ul>" + items.map { "<li>\(e($0))</li>" }.joined() + "</ul></section>\n"
    }

    /// The page up to and including its heading: a self-contained head with `style`.
    package static func pageStart(title: String, style: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(e(title))</title>
        <style>\(style)</style>
        </head>
        <body>
        <h1>\(e(title))</h1>

        """
    }

    package static func e(_ text: String) -> String { HTMLText.escape(text) }

    /// Type, headings, fact lists and warnings; each report adds its own rules. Reports are
    /// printed, so they stay light in dark mode too.
    package static let baseStyle = """
        body{font-family:Helvetica,Arial,sans-serif;color:#222;max-width:860px;margin:2em auto;padding:0 1em;line-height:1.4}
        h1{font-size:1.6em;border-bottom:2px solid #1f4e79;padding-bottom:.2em}h2{font-size:1.15em;color:#1f4e79;margin-top:1.4em}
        dl{display:grid;grid-template-columns:max-content auto;gap:.2em 1em;margin:0}dt{color:#555}dd{margin:0;font-weight:600}
        .warnings li{color:#a33}figure{margin:0}
        @media (prefers-color-scheme: dark){body{background:#fff}}
        """
}
