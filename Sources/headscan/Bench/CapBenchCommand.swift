import ArgumentParser
import Evaluation
import Foundation
import Geometry
import Processing
import Simulation

/// `headscan bench cap`: scans under a cap that sits badly, measured as today's pipeline does.
struct CapBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cap",
        abstract: "Benchmark scans under a bad cap: hair under it, riding up, stickers lost or damaged, sliding, stretching.",
        discussion: """
            Simulates --heads heads (length 120–160 mm, cranial index 72–98, CVAI 0–15 %) under \
            each cap condition (a perfect cap, 3 mm of hair under it, a cap that rides up and \
            folds its lowest ring of stickers under, a third of the stickers lost, a third \
            smeared, torn or creased, a cap that slides 8° in the middle of the scan, fabric \
            that stretches by 3 mm), ideal and \
            restless, processes each as `headscan process` does without picks, and compares \
            CVAI and the skull surface under the cap (mean distance after the marker map's fit \
            onto the cap) with the truth, on the scans measured. Refused scans are listed with \
            the words they gave; a scan refused because the cap stood off the skin is measured \
            anyway as well, and its error shown beside the words. "stand-off mm" is the median \
            and largest lift of the cap off the skin at its edge that processing found \
            (above 1 mm a scan is refused). "slid" counts the scans in which the reconstruction \
            found the cap sliding on the head and undid it.

            Examples:
              swift run -c release headscan bench cap --heads 3 --seconds 20
              swift run -c release headscan bench cap --heads 30 --json
              swift run -c release headscan bench cap --heads 2 --conditions rides-up --keep-scans /tmp/caps
              swift run -c release headscan bench cap --heads 2 --conditions rides-up --keep-scans /tmp/caps --reuse
            """)

    @Option(help: "Different heads per condition and scenario.")
    var heads = 5

    @Option(help: "Seconds per scan.")
    var seconds = 30.0

    @Option(help: "Seed of the heads and scans.")
    var seed: UInt64 = 31

    @Option(help: "Only these conditions, comma-separated (perfect, hair-3mm, rides-up, third-lost, third-damaged, slides, stretches).")
    var conditions: String?

    @Flag(
        inversion: .prefixedNo,
        help: "Look for a cap that slid on the head and undo it (--no-find-cap-slide measures as before it was looked for, for comparisons).")
    var findCapSlide = true

    @Option(help: "Trials run side by side (each scan still uses every core where it can); the figures do not depend on it.")
    var jobs = 2

    @Option(help: "Keep every scan's library in this folder (one per condition, scenario and seed), to open in the replay.")
    var keepScans: String?

    @Flag(
        help:
            "With --keep-scans: process the scans an earlier run kept there again instead of simulating them anew (quick, after a change to processing)."
    )
    var reuse = false

    @OptionGroup var outputOptions: OutputOptions

    func validate() throws {
        if reuse, keepScans == nil { throw ValidationError("--reuse needs --keep-scans, the folder of an earlier run") }
        guard heads >= 1 else { throw ValidationError("--heads must be at least 1") }
        guard seconds >= 5, seconds <= 120 else { throw ValidationError("--seconds must be in 5...120") }
        if let conditions {
            let known = Set(CapCondition.all.map(\.name))
            if let unknown = conditions.split(separator: ",").map(String.init).first(where: { !known.contains($0) }) {
                throw ValidationError("unknown condition \(unknown); known: \(CapCondition.all.map(\.name).joined(separator: ", "))")
            }
        }
    }

    func run() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
        let chosen =
            conditions.map { names in CapCondition.all.filter { names.split(separator: ",").map(String.init).contains($0.name) } }
            ?? CapCondition.all
        var random = SplitMix64(seed: seed)
        let drawn = (0..<heads).map { _ in LandmarkTrial.drawHead(&random) }
        let processing = {
            var options = ProcessingOptions()
            options.reconstruction.findsCapSlide = findCapSlide
            return options
        }()
        let cases = chosen.flatMap { condition in
            [Scenario.ideal, .restless].flatMap { scenario in drawn.indices.map { (condition: condition, scenario: scenario, index: $0) } }
        }
        // Trials are independent and seeded: run side by side, they give the same figures.
        let results = TrialSlots<CapTrial>(count: cases.count)
        let (jobs, seed, seconds, reuse) = (self.jobs, self.seed, self.seconds, self.reuse)
        let kept = keepScans.map { URL(fileURLWithPath: $0, isDirectory: true) }
        DispatchQueue.concurrentPerform(iterations: min(jobs, cases.count)) { worker in
            for k in stride(from: worker, to: cases.count, by: jobs) {
                let c = cases[k]
                results.record(
                    k,
                    Result {
                        try CapTrial.run(
                            condition: c.condition, scenario: c.scenario, seed: seed &+ UInt64(c.index), head: drawn[c.index],
                            seconds: seconds, processing: processing, keepingIn: kept, reusing: reuse)
                    })
            }
        }
        let trials = try results.results()
        try outputOptions.emit(CapBenchResult(trials: trials))
    }
}

extension CapBenchResult: TextReport {
    var text: String {
        func f(_ v: Double?) -> String { v.map { String(format: "%.2f", $0) } ?? "–" }
        var table = TextTable([
            .left("cap", 12), .left("scenario", 10), .right("measured", 9), .right("CVAI err median", 16), .right("max", 6),
            .right("≤0.3", 6), .right("surface mm", 11), .right("worst", 7), .right("stand-off mm", 13), .right("slid", 5),
            .right("doubt", 6),
        ])
        for g in groups {
            table.add([
                g.condition, g.scenario, "\(g.measured)/\(g.scans)", f(g.cvaiErrorMedian), f(g.cvaiErrorMax), "\(g.within03)",
                f(g.surfaceMeanMM), f(g.surfaceWorstMM), "\(f(g.standOffMedianMM))/\(f(g.standOffMaxMM))", "\(g.slidesFound)",
                "\(g.slideDoubts)",
            ])
        }
        return (table.lines + groups.flatMap { g in g.refusals.map { "refused (\(g.condition), \(g.scenario)): \($0)" } })
            .joined(separator: "\n")
    }
}
