import ArgumentParser
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
        let speed = try measureSpeed()
        let heads = try measureHeads()
        let result = SimulationBenchResult(
            frames: frames, renderFPS: speed.render, renderCPUFPS: speed.renderCPU, simulateAndWriteFPS: speed.total, heads: heads,
            worstCVAIError: heads.map { abs($0.measuredCVAI - $0.targetCVAI) }.max() ?? 0)
        try outputOptions.emit(result)
    }

    private func measureSpeed() throws -> (render: Double, renderCPU: Double, total: Double) {
        let simulator = try Simulator(.init(scenario: .ideal, seed: 1, seconds: Double(frames) / Simulator.frameRate))
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("headscan-simbench-\(getpid()).hscan")
        defer { try? FileManager.default.removeItem(at: url) }
        let k = simulator.configuration.intrinsics
        let writer = try ScanWriter(
            url: url, header: ScanHeader(device: "simulator", appVersion: HeadScanVersion.current, colorIntrinsics: k, depthIntrinsics: k, capLayoutName: CapLayout.standard.name),
            options: .init(overwrite: true))
        let clock = ContinuousClock()
        var render = Duration.zero, write = Duration.zero, renderCPU = 0.0
        var bar = ProgressBar("Simulating")
        while true {
            var next: SimulatedFrame?
            render += clock.measure { renderCPU += ThreadCPUTime.measure { next = simulator.nextFrame() } }
            guard let frame = next else { break }
            write += try clock.measure { try writer.append(frame.frame) }
            bar.update(simulator.nextIndex, of: simulator.frameCount)
        }
        try writer.close()
        return (Double(frames) / render.seconds, Double(frames) / renderCPU, Double(frames) / (render + write).seconds)
    }

    private func measureHeads() throws -> [HeadCheck] {
        var checks: [HeadCheck] = []
        for side in FlatSide.allCases {
            for target in [0, 3.5, 6.25, 8.75, 12] {
                let head = try HeadModel(HeadParameters(cvai: target, flatSide: side))
                guard let (measured, _) = MeshMeasurement.measure(HeadMesh.make(head), searchTop: 0.08) else { continue }
                checks.append(HeadCheck(
                    side: side.rawValue, targetCVAI: target, modelCVAI: head.measurements.cvai, measuredCVAI: measured.cvai,
                    modelCI: head.measurements.ci, measuredCI: measured.ci))
            }
        }
        return checks
    }
}

/// One head of the exactness check.
struct HeadCheck: Encodable {
    var side: String
    var targetCVAI: Double
    var modelCVAI: Double
    var measuredCVAI: Double
    var modelCI: Double
    var measuredCI: Double
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
        var lines = [String(
            format: "render: %.1f frames/s (%.1f per CPU second), render + write: %.1f frames/s (%d frames, one core)",
            renderFPS, renderCPUFPS, simulateAndWriteFPS, frames)]
        for h in heads {
            lines.append(String(format: "%@ target CVAI %5.2f: model %.4f, mesh %.4f; CI model %.2f, mesh %.2f", h.side, h.targetCVAI, h.modelCVAI, h.measuredCVAI, h.modelCI, h.measuredCI))
        }
        lines.append(String(format: "worst |mesh − target| CVAI: %.4f", worstCVAIError))
        return lines.joined(separator: "\n")
    }
}
