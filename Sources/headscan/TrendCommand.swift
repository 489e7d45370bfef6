import ArgumentParser
import Cephalometry
import Foundation
import ScanLibrary

/// `headscan trend`: how a patient's head changes over their visits.
struct TrendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trend",
        abstract: "A patient's visits in time order: date, age, CVAI, CI, circumference, severity, and the change per week and per month.",
        discussion: """
            Lists every session of the patient in the library, measured or not (process a \
            session with `headscan process` to measure it). The age at each visit needs the \
            birth date in one of the patient's patient.json files ("birthDate"). With two or \
            more measured visits on different days the least-squares change per week follows, \
            and per month for every measure (the volumes and symmetry ratios when every \
            visit was measured with them; process older sessions again to add them).

            Examples:
              headscan trend 12 --root Scans
              headscan trend 12 --root Scans --json
            """)

    @Argument(help: "The patient ID.")
    var patientID: Int

    @Option(help: "The scan library folder.", completion: .directory)
    var root: String

    @OptionGroup var outputOptions: OutputOptions

    func validate() throws {
        guard patientID > 0 else { throw ValidationError("the patient ID is a whole number from 1") }
    }

    func run() throws {
        let library = ScanLibrary(root: fileURL(root))
        let visits = try library.visits(ofPatient: patientID)
        guard !visits.isEmpty else {
            throw ToolError("no session of patient \(patientID) in \(library.root.path); `headscan library list --root \(root)` shows the sessions")
        }
        let output = TrendOutput(patientID: patientID, visits: visits)
        try outputOptions.emit(output)
    }
}

/// What `headscan trend` prints.
struct TrendOutput: TextReport {
    struct VisitOutput: Encodable {
        var session: String
        var date: String
        var ageWeeks: Double?
        var measured: Bool
        var cvai, ci, circumferenceMM, cvaMM: Double?
        var severityLevel: Int?
        var shape: ShapeMeasures?
    }

    var patientID: Int
    var visits: [VisitOutput]
    var trend: VisitTrend?

    init(patientID: Int, visits: [PatientVisit]) {
        self.patientID = patientID
        let formatter = ISO8601DateFormatter()
        self.visits = visits.map { v in
            let m = v.measurement
            return VisitOutput(
                session: v.session.name.rawValue, date: formatter.string(from: v.date), ageWeeks: v.ageWeeks, measured: m != nil,
                cvai: m?.cvai, ci: m?.ci, circumferenceMM: m?.circumferenceMM, cvaMM: m?.cvaMM, severityLevel: m?.severityLevel.rawValue,
                shape: m?.shape)
        }
        trend = try? VisitTrend(visits.compactMap { v in v.measurement.map { Visit(date: v.date, measurement: $0) } })
    }

    var text: String {
        func f(_ v: Double?, _ format: String = "%.2f") -> String { v.map { String(format: format, $0) } ?? "–" }
        var table = TextTable([
            .left("date", 22), .right("age (wk)", 8), .right("CVAI %", 9), .right("CI", 7), .right("circ. mm", 11), .right("CHOA", 6),
            .left("session", gap: 2),
        ])
        for v in visits {
            table.add([
                String(v.date.prefix(19)), f(v.ageWeeks, "%.1f"), f(v.cvai, "%.2f"), f(v.ci, "%.1f"), f(v.circumferenceMM, "%.1f"),
                v.severityLevel.map { "\($0)" } ?? "–", v.session + (v.measured ? "" : " (not measured)"),
            ])
        }
        var lines = ["Patient \(patientID): \(visits.count) visit\(visits.count == 1 ? "" : "s")"] + table.lines
        if let t = trend {
            lines.append(
                String(
                    format: "change per week over %.1f weeks: CVAI %+.2f points, CI %+.2f, circumference %+.1f mm; CHOA %d → %d",
                    t.spanWeeks, t.cvaiPerWeek, t.ciPerWeek, t.circumferenceMMPerWeek, t.firstSeverity.rawValue, t.lastSeverity.rawValue))
            if let month = t.perMonth {
                let parts = [
                    ("CVAI", "cvai", " points"), ("CI", "ci", ""), ("circumference", "circumferenceMM", " mm"),
                    ("posterior symmetry ratio", "posteriorSymmetryRatio", " %"), ("volume", "cranialVolumeCM3", " cm³"),
                ]
                lines.append(
                    "change per month: "
                        + parts.compactMap { name, key, unit in
                            month[key].map { "\(name) \(String(format: "%+.2f", $0))\(unit)" }
                        }.joined(separator: ", "))
            }
        }
        return lines.joined(separator: "\n")
    }
}
