import ArgumentParser
import Foundation
import RangeOfMotion

/// `headscan rom history`: a patient's stored knee measurements.
struct RomHistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List a patient's stored knee measurements, or the patients in a folder.",
        discussion: """
            Measurements are stored by `rom analyze --patient ID --root DIR` as \
            DIR/ID/knee-<side>_<date>.json, each holding the whole analysis. A file that \
            cannot be read is named while the others still list.

            Examples:
              headscan rom history --root ROM
              headscan rom history --patient 12 --root ROM --json
            """)

    @Option(help: "The patient (without it: list the patients).")
    var patient: String?

    @Option(help: "The folder of stored measurements.")
    var root: String

    @OptionGroup var outputOptions: OutputOptions

    func run() throws {
        let store = RangeOfMotionStore(root: fileURL(root))
        guard let patient else {
            let patients = store.patients()
            if outputOptions.json { return try printJSON(["patients": patients]) }
            print(patients.isEmpty ? "no patients in \(root)" : patients.joined(separator: "\n"))
            return
        }
        let history = try store.history(patientID: patient)
        let output = HistoryOutput(patient: patient, history: history)
        try outputOptions.emit(output)
    }
}

/// What `rom history --patient` prints.
struct HistoryOutput: TextReport {
    struct Entry: Encodable {
        var date: String
        var side: String
        var accepted: Bool
        var neutralZero: String?
        var minAngle: Double?
        var maxAngle: Double?
        var framesPassed: Int
        var framesTotal: Int
        var source: String
        var file: String
    }
    var patient: String
    var measurements: [Entry]
    var problems: [String]

    init(patient: String, history: RangeOfMotionHistory) {
        self.patient = patient
        let formatter = ISO8601DateFormatter()
        measurements = history.records.map { stored in
            let r = stored.record, a = r.analysis
            return Entry(
                date: formatter.string(from: r.date), side: a.side.rawValue, accepted: a.accepted, neutralZero: r.neutralZero,
                minAngle: a.minimum?.angle, maxAngle: a.maximum?.angle, framesPassed: a.quality.framesPassed,
                framesTotal: a.quality.framesTotal, source: r.source, file: stored.url.path)
        }
        problems = history.problems.map(\.description)
    }

    var text: String {
        var table = TextTable([
            .left("date", 20), .left("side", 5, gap: 2), .left("neutral-0", 10, gap: 2), .left("frames", 13, gap: 2), .left("source", gap: 2),
        ])
        for m in measurements {
            table.add([m.date, m.side, m.neutralZero ?? "refused", "\(m.framesPassed)/\(m.framesTotal) frames", m.source])
        }
        var lines = measurements.isEmpty ? ["no measurements of patient \(patient)"] : table.lines
        lines += problems.map { "problem: \($0)" }
        return lines.joined(separator: "\n")
    }
}
