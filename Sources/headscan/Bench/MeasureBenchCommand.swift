import ArgumentParser
import Cephalometry
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
        let timing = try timeLargeMesh()
        let heads = try measureHeads()
        let sensitivity = try measureSensitivity()
        let result = MeasureBenchResult(
            triangles: timing.triangles, medianSeconds: timing.median, bestSeconds: timing.best, heads: heads,
            worstCVAIError: heads.map(\.cvaiError).max() ?? 0, worstCIError: heads.map(\.ciError).max() ?? 0,
            sensitivity: sensitivity, worstSensitivity: sensitivity.map(\.worstCVAIChange).max() ?? 0)
        try outputOptions.emit(result)
    }

    /// A simulated head tessellated to about 200k triangles, posed away from its head frame.
    private func timeLargeMesh() throws -> (triangles: Int, median: Double, best: Double) {
        let head = try HeadModel(HeadParameters(cvai: 8, flatSide: .left))
        let mesh = HeadMesh.skull(head, segments: 500, elevationSteps: 201)
        let pose = RigidTransform(rotation: Rotation3(yaw: 0.7, pitch: -0.4, roll: 1.1), translation: SIMD3(0.3, -1.2, 0.55))
        let posed = mesh.transformed(by: pose)
        let landmarks = Self.landmarks(head).transformed(by: pose)
        let clock = ContinuousClock()
        var times: [Double] = []
        for _ in 0..<max(1, repeats) {
            let elapsed = try clock.measure { _ = try Cephalometer.measure(posed, landmarks: landmarks) }
            times.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
        }
        times.sort()
        return (mesh.faces.count, times[times.count / 2], times[0])
    }

    private func measureHeads() throws -> [MeasuredHead] {
        var heads: [MeasuredHead] = []
        for side in FlatSide.allCases {
            for target in [0, 3.5, 6.25, 8.75, 12] {
                let head = try HeadModel(HeadParameters(cvai: target, flatSide: side))
                let mesh = HeadMesh.make(head)
                let m = try Cephalometer.measure(mesh, landmarks: Self.landmarks(head)).measurement
                heads.append(MeasuredHead(
                    side: side.rawValue, targetCVAI: target, modelCVAI: head.measurements.cvai, measuredCVAI: m.cvai,
                    cvaiError: abs(m.cvai - head.measurements.cvai), modelCI: head.measurements.ci, measuredCI: m.ci,
                    ciError: abs(m.ci - head.measurements.ci), flattenedSide: m.flattenedSide.rawValue))
            }
        }
        return heads
    }

    private func measureSensitivity() throws -> [LandmarkSensitivity] {
        let head = try HeadModel(HeadParameters(cvai: 6.25, flatSide: .right))
        let mesh = HeadMesh.make(head)
        let landmarks = Self.landmarks(head)
        let reference = try Cephalometer.measure(mesh, landmarks: landmarks).measurement.cvai
        let names: [(String, WritableKeyPath<HeadLandmarks, SIMD3<Double>>)] = [
            ("nasion", \.nasion), ("noseTip", \.noseTip), ("leftTragion", \.leftTragion), ("rightTragion", \.rightTragion),
        ]
        let steps = [SIMD3<Double>(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)].flatMap { [$0 * 0.002, $0 * -0.002] }
        return try names.map { name, key in
            var worst = 0.0
            for step in steps {
                var moved = landmarks
                moved[keyPath: key] += step
                worst = max(worst, abs(try Cephalometer.measure(mesh, landmarks: moved).measurement.cvai - reference))
            }
            return LandmarkSensitivity(landmark: name, worstCVAIChange: worst)
        }
    }

    /// The simulator's landmarks as the product's type.
    static func landmarks(_ head: HeadModel) -> HeadLandmarks {
        let l = head.landmarks
        return HeadLandmarks(nasion: l.nasion, noseTip: l.noseTip, leftTragion: l.leftTragion, rightTragion: l.rightTragion)
    }
}

/// One simulator head of the exactness check.
struct MeasuredHead: Encodable {
    var side: String
    var targetCVAI: Double
    var modelCVAI: Double
    var measuredCVAI: Double
    var cvaiError: Double
    var modelCI: Double
    var measuredCI: Double
    var ciError: Double
    var flattenedSide: String
}

/// The largest CVAI change from moving one landmark ±2 mm along each head axis.
struct LandmarkSensitivity: Encodable {
    var landmark: String
    var worstCVAIChange: Double
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
        lines.append("side   target  model CVAI  measured  error   model CI  measured  error")
        for h in heads {
            lines.append("\(h.side.padding(toLength: 6, withPad: " ", startingAt: 0)) \(f(h.targetCVAI, 2))   \(f(h.modelCVAI))      \(f(h.measuredCVAI))   \(f(h.cvaiError))   \(f(h.modelCI, 2))     \(f(h.measuredCI, 2))     \(f(h.ciError))")
        }
        lines.append("worst CVAI error \(f(worstCVAIError)) (target 0.2), worst CI error \(f(worstCIError)) (target 0.5)")
        lines.append("landmark ±2 mm, worst CVAI change: " + sensitivity.map { "\($0.landmark) \(f($0.worstCVAIChange))" }.joined(separator: ", ")
            + "; worst \(f(worstSensitivity)) (target < 0.5)")
        return lines.joined(separator: "\n")
    }
}
