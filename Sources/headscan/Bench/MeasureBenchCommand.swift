import ArgumentParser
import Cephalometry
import Evaluation
import Foundation
import Geometry
import Simulation

/// `headscan bench measure`: speed and exactness of the head measurement.
struct MeasureBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "measure",
        abstract: "Benchmark the head measurement: time on a 200k-triangle mesh, CVAI/CI errors, landmark sensitivity.",
        discussion: """
            Times measuring a 200k-triangle simulated head in an arbitrary pose (target ≤ 0.5 s), \
            measures the simulator's heads with CVAI 0, 3.5, 6.25, 8.75 and 12 % on both sides \
            against the simulator's exact figures (targets: CVAI within 0.2, CI within 0.5), and \
            moves each landmark by ±2 mm along each head axis (target: CVAI changes < 0.5).

            Example:
              swift run -c release headscan bench measure --json
            """)

    @Option(help: "Timed repetitions on the large mesh.")
    var repeats = 5

    @OptionGroup var outputOptions: OutputOptions

    func run() throws {
        let timing = try MeasureEvaluation.timeLargeMesh(repeats: repeats)
        let heads = try MeasureEvaluation.measureHeads()
        let sensitivity = try MeasureEvaluation.measureSensitivity()
        let result = MeasureBenchResult(
            triangles: timing.triangles, medianSeconds: timing.median, bestSeconds: timing.best, heads: heads,
            worstCVAIError: heads.map(\.cvaiError).max() ?? 0, worstCIError: heads.map(\.ciError).max() ?? 0,
            sensitivity: sensitivity, worstSensitivity: sensitivity.map(\.worstCVAIChange).max() ?? 0)
        try outputOptions.emit(result)
    }
}

/// Everything `headscan bench measure` reports.
struct MeasureBenchResult: TextReport {
    var triangles: Int
    var medianSeconds: Double
    var bestSeconds: Double
    var heads: [MeasuredHead]
    var worstCVAIError: Double
    var worstCIError: Double
    var sensitivity: [LandmarkSensitivity]
    var worstSensitivity: Double

    var text: String {
        func f(_ v: Double, _ digits: Int = 3) -> String { String(format: "%.\(digits)f", v) }
        var lines = ["measure \(triangles) triangles: median \(f(medianSeconds)) s, best \(f(bestSeconds)) s (target ≤ 0.5 s)"]
        var table = TextTable([
            .left("side", 6), .right("target", 7), .right("model CVAI", 11), .right("measured", 10), .right("error", 7),
            .right("model CI", 10), .right("measured", 10), .right("error", 7),
        ])
        for h in heads {
            table.add([
                h.side, f(h.targetCVAI, 2), f(h.modelCVAI), f(h.measuredCVAI), f(h.cvaiError), f(h.modelCI, 2), f(h.measuredCI, 2),
                f(h.ciError),
            ])
        }
        lines += table.lines
        lines.append("worst CVAI error \(f(worstCVAIError)) (target 0.2), worst CI error \(f(worstCIError)) (target 0.5)")
        lines.append(
            "landmark ±2 mm, worst CVAI change: " + sensitivity.map { "\($0.landmark) \(f($0.worstCVAIChange))" }.joined(separator: ", ")
                + "; worst \(f(worstSensitivity)) (target < 0.5)")
        return lines.joined(separator: "\n")
    }
}
