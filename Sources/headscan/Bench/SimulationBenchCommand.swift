import ArgumentParser
import Evaluation
import Foundation
import Markers
import Recording
import Simulation

/// `headscan bench simulation`: simulator speed and the exactness of its head model.
struct SimulationBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulation",
        abstract: "Benchmark the scan simulator: frames per second and its own head measurements.",
        discussion: """
            Renders an ideal 640x480 scan on one core (timing rendering alone and rendering \
            plus writing), then builds heads with CVAI 0, 3.5, 6.25, 8.75 and 12 % on both sides \
            and measures their meshes as a clinician's software would (slice of greatest \
            outline above the reference plane, diagonals at ±30°).

            Example:
              swift run -c release headscan bench simulation --json
            """)

    @Option(help: "Frames to render.")
    var frames = 300

    @OptionGroup var outputOptions: OutputOptions

    func run() throws {
        var bar = ProgressBar("Simulating")
        let speed = try SimulationEvaluation.measureSpeed(frames: frames) { bar.update($0, of: $1) }
        let heads = try SimulationEvaluation.measureHeads()
        let result = SimulationBenchResult(
            frames: frames, renderFPS: speed.render, renderCPUFPS: speed.renderCPU, simulateAndWriteFPS: speed.total, heads: heads,
            worstCVAIError: heads.map { abs($0.measuredCVAI - $0.targetCVAI) }.max() ?? 0)
        try outputOptions.emit(result)
    }
}

/// What `bench simulation` reports.
struct SimulationBenchResult: TextReport {
    var frames: Int
    var renderFPS: Double
    /// Frames per second of the thread's own CPU time: the same as `renderFPS` on an idle
    /// machine, and the fairer figure on a busy one.
    var renderCPUFPS: Double
    var simulateAndWriteFPS: Double
    var heads: [HeadCheck]
    var worstCVAIError: Double

    var text: String {
        var lines = [
            String(
                format: "render: %.1f frames/s (%.1f per CPU second), render + write: %.1f frames/s (%d frames, one core)",
                renderFPS, renderCPUFPS, simulateAndWriteFPS, frames)
        ]
        for h in heads {
            lines.append(
                String(
                    format: "%@ target CVAI %5.2f: model %.4f, mesh %.4f; CI model %.2f, mesh %.2f", h.side, h.targetCVAI, h.modelCVAI,
                    h.measuredCVAI, h.modelCI, h.measuredCI))
        }
        lines.append(String(format: "worst |mesh − target| CVAI: %.4f", worstCVAIError))
        return lines.joined(separator: "\n")
    }
}
