import ArgumentParser
import Foundation
import Processing

/// `headscan report`: the clinical report of one measured session, as HTML and PDF.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write the report of a measured scan session: report.html and report.pdf.",
        discussion: """
            SESSION_DIR is one session folder of a scan library (the folders `headscan demo` \
            and the app create: [ID]_[date]_Scan). It must be measured: it holds \
            measurement.json with the landmarks and the mesh it names (head.ply). The mesh is \
            measured again, so the values are those of `headscan measure --json` for the same \
            mesh and landmarks. Calliper values come from patient.json; the feedback timeline \
            from feedback.json and a truth column from truth.json when present.

            The HTML page is self-contained (no network, no scripts); the PDF is A4 with vector \
            drawings and searchable text.

            Examples:
              headscan report demo/1_2026-11-22T10-00-00_Scan
              headscan report demo/1_2026-11-22T10-00-00_Scan --out /tmp/reports
            """)

    @Argument(help: "The session folder.")
    var sessionDir: String

    @Option(help: "Folder to write the report into (default: the session folder).")
    var out: String?

    func run() throws {
        let folder = try SessionFolder(sessionDir)
        var target: URL?
        if let out {
            target = fileURL(out)
            try FileManager.default.createDirectory(at: target!, withIntermediateDirectories: true)
        }
        let truth = try folder.truthReference()
        let written = try ClinicalReportWriter(library: folder.library, session: folder.session)
            .write(to: target, reference: truth?.reference, notes: truth.map { [$0.note] } ?? [])
        print("Wrote \(written.html.path)")
        print("Wrote \(written.pdf.path)")
    }
}
