import ArgumentParser
import Cephalometry
import Evaluation
import Foundation
import Geometry
import Simulation

/// `headscan bench shape`: deformity type and severity on many simulated heads, and the
/// asymmetry map on symmetric and flattened ones.
struct ShapeBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shape",
        abstract: "Benchmark the deformity type and severity and the asymmetry map on simulated heads.",
        discussion: """
            Builds --heads simulated heads with cranial index 68–104, CVAI 0–15 %, lengths \
            120–160 mm and either side flat, measures each head's surface with its true \
            landmarks, and grades it; the grade must match the one of the simulator's exact \
            figures on every head whose figures lie more than 0.2 points from a threshold. \
            Then it maps symmetric heads (target: below 0.3 mm everywhere more than 1 cm from \
            the ears) and flattened ones (the deepest flattening against the model's own \
            depth, measured along the ray from the ear-line centre at the widest outline).

            Example:
              swift run -c release headscan bench shape --json
            """)

    @Option(help: "Simulated heads to grade.")
    var heads = 200

    @Option(help: "Seed of the heads' random proportions.")
    var seed: UInt64 = 7

    @OptionGroup var outputOptions: OutputOptions

    func validate() throws {
        guard heads >= 1 else { throw ValidationError("--heads must be at least 1") }
    }

    func run() throws {
        var bar = ProgressBar("Grading")
        let grading = try ShapeEvaluation.gradeHeads(heads, seed: seed) { bar.update($0, of: $1) }
        let symmetric = try [76.0, 84, 92].map { try ShapeEvaluation.mapSymmetric(ci: $0) }
        let flattened = try AsymmetryPlane.allCases.flatMap { plane in
            try [(4.0, FlatSide.right), (8, .left), (12, .right)].map { try ShapeEvaluation.mapFlattened(cvai: $0.0, side: $0.1, plane: plane) }
        }
        try outputOptions.emit(ShapeBenchResult(grading: grading, symmetric: symmetric, flattened: flattened))
    }
}

extension ShapeBenchResult: TextReport {
    var text: String {
        func f(_ v: Double) -> String { String(format: "%.2f", v) }
        var lines = [
            "grading: \(grading.matched)/\(grading.eligible) heads graded as their exact figures (\(grading.nearThreshold) of \(grading.heads) within 0.2 of a threshold, not counted)",
            "types:   " + grading.types.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "),
        ]
        lines += grading.mismatches.map { "  mismatch: \($0)" }
        lines += symmetric.map {
            "symmetric head, CI \(f($0.cranialIndex)): worst \(f($0.worstAwayFromEarsMM)) mm more than 1 cm from the ears; with landmarks 1 mm off \(f($0.movedLandmarksWorstMM)) mm (registered plane \(f($0.movedLandmarksRegisteredWorstMM)) mm)"
        }
        lines += flattened.map {
            "flattened head, CVAI \(f($0.cvai)) \($0.side), \($0.plane) plane: model depth \(f($0.modelDepthMM)) mm at \(String(format: "%.0f", $0.modelDepthAngleDegrees))°, mapped \(f($0.mappedDepthMM)) mm at \(String(format: "%.0f", $0.mappedAngleDegrees))° (\($0.mappedSide)), best plane \(f($0.planeOffsetMM)) mm off centre, tilted \(f($0.planeTiltDegrees))°"
        }
        return lines.joined(separator: "\n")
    }
}
