import Cephalometry
import Foundation
import Markers
import Recording
import Simulation

/// The simulator checked: its speed and the exactness of the heads it makes.
public enum SimulationEvaluation {
    /// Frames per second: rendering (wall and thread CPU), and rendering plus writing the scan.
    public static func measureSpeed(frames: Int, progress: (Int, Int) -> Void) throws -> (render: Double, renderCPU: Double, total: Double) {
        let simulator = try Simulator(.init(scenario: .ideal, seed: 1, seconds: Double(frames) / Simulator.frameRate))
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("headscan-simbench-\(getpid()).hscan")
        defer { try? FileManager.default.removeItem(at: url) }
        let k = simulator.configuration.intrinsics
        let writer = try ScanWriter(
            url: url,
            header: ScanHeader(
                device: "simulator", appVersion: HeadScanVersion.current, colorIntrinsics: k, depthIntrinsics: k,
                capLayoutName: CapLayout.standard.name),
            options: .init(overwrite: true))
        let clock = ContinuousClock()
        var render = Duration.zero, write = Duration.zero, renderCPU = 0.0
        while true {
            var next: SimulatedFrame?
            render += clock.measure { renderCPU += ThreadCPUTime.measure { next = simulator.nextFrame() } }
            guard let frame = next else { break }
            write += try clock.measure { try writer.append(frame.frame) }
            progress(simulator.nextIndex, simulator.frameCount)
        }
        try writer.close()
        return (Double(frames) / render.seconds, Double(frames) / renderCPU, Double(frames) / (render + write).seconds)
    }

    /// The simulator's heads measured on their own mesh, against the CVAI asked for.
    public static func measureHeads() throws -> [HeadCheck] {
        var checks: [HeadCheck] = []
        for side in FlatSide.allCases {
            for target in [0, 3.5, 6.25, 8.75, 12] {
                let head = try HeadModel(HeadParameters(cvai: target, flatSide: side))
                guard let (measured, _) = MeshMeasurement.measure(HeadMesh.make(head), searchTop: 0.08) else { continue }
                checks.append(
                    HeadCheck(
                        side: side.rawValue, targetCVAI: target, modelCVAI: head.measurements.cvai, measuredCVAI: measured.cvai,
                        modelCI: head.measurements.ci, measuredCI: measured.ci))
            }
        }
        return checks
    }
}

/// One head of the exactness check.
public struct HeadCheck: Encodable {
    public var side: String
    public var targetCVAI: Double
    public var modelCVAI: Double
    public var measuredCVAI: Double
    public var modelCI: Double
    public var measuredCI: Double
}
