import ArgumentParser
import Cephalometry
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
        let grading = try gradeHeads()
        let symmetric = try [76.0, 84, 92].map { try mapSymmetric(ci: $0) }
        let flattened = try AsymmetryPlane.allCases.flatMap { plane in
            try [(4.0, FlatSide.right), (8, .left), (12, .right)].map { try mapFlattened(cvai: $0.0, side: $0.1, plane: plane) }
        }
        try outputOptions.emit(ShapeBenchResult(grading: grading, symmetric: symmetric, flattened: flattened))
    }

    private func gradeHeads() throws -> ShapeBenchResult.Grading {
        var random = SplitMix64(seed: seed)
        let thresholds = ShapeThresholds()
        var eligible = 0, matched = 0, nearThreshold = 0
        var mismatches: [String] = []
        var types: [String: Int] = [:]
        var bar = ProgressBar("Grading")
        for index in 0..<heads {
            bar.update(index + 1, of: heads)
            let parameters = HeadParameters(
                lengthMM: random.uniform(120...160), cranialIndex: random.uniform(68...104), cvai: random.uniform(0...15),
                flatSide: random.unit() < 0.5 ? .left : .right)
            let head = try HeadModel(parameters)
            let m = try Cephalometer.measure(HeadMesh.make(head), landmarks: MeasureBenchCommand.landmarks(head)).measurement
            let t = head.measurements
            let truth = ShapeAssessment(
                HeadMeasurement(diagonalA: t.diagonalAMM / 1000, diagonalB: t.diagonalBMM / 1000, length: t.lengthMM / 1000,
                                width: t.widthMM / 1000, perimeter: t.circumferenceMM / 1000),
                thresholds: thresholds)
            types[truth.type.rawValue, default: 0] += 1
            let ciBounds = thresholds.brachycephalyCI + [thresholds.dolichocephalyCI] + thresholds.specialistCI
            guard thresholds.choaCVAI.allSatisfy({ abs(t.cvai - $0) > 0.2 }), ciBounds.allSatisfy({ abs(t.ci - $0) > 0.2 }) else {
                nearThreshold += 1
                continue
            }
            eligible += 1
            let got = ShapeAssessment(m, thresholds: thresholds)
            if got.type == truth.type, got.choaLevel == truth.choaLevel, got.brachycephaly == truth.brachycephaly {
                matched += 1
            } else {
                mismatches.append(String(format: "CI %.2f CVAI %.2f: truth %@ level %d, measured CI %.2f CVAI %.2f → %@ level %d",
                                          t.ci, t.cvai, truth.type.rawValue, truth.choaLevel.rawValue, m.ci, m.cvai, got.type.rawValue, got.choaLevel.rawValue))
            }
        }
        return .init(heads: heads, nearThreshold: nearThreshold, eligible: eligible, matched: matched, types: types, mismatches: mismatches)
    }

    /// A symmetric head mapped with its true landmarks, and with the nasion 1 mm to the side
    /// and the right tragion 1 mm up (a careful hand's error) across either plane.
    private func mapSymmetric(ci: Double) throws -> ShapeBenchResult.SymmetricMap {
        let head = try HeadModel(HeadParameters(cranialIndex: ci, cvai: 0))
        let mesh = HeadMesh.make(head)
        var ears = HeadMesh.ear(head, side: -1)
        ears.append(HeadMesh.ear(head, side: 1))
        guard let earGrid = ClosestPointGrid(ears, cellSize: 0.005) else { throw ToolError("the simulated ears have no surface") }
        let awayFromEars = mesh.vertices.map { earGrid.closest(to: $0, maximumDistance: 0.010) == nil }
        func worst(_ landmarks: HeadLandmarks, _ plane: AsymmetryPlane) throws -> Double {
            var options = AsymmetryOptions()
            options.plane = plane
            let map = try AsymmetryMap.compute(mesh, landmarks: landmarks, options: options)
            return zip(map.valuesMM, awayFromEars).filter { !$0.0.isNaN && $0.1 }.map { abs($0.0) }.max() ?? 0
        }
        var moved = MeasureBenchCommand.landmarks(head)
        moved.nasion.x += 0.001
        moved.rightTragion.z += 0.001
        return .init(
            cranialIndex: ci, worstAwayFromEarsMM: try worst(MeasureBenchCommand.landmarks(head), .landmarks),
            movedLandmarksWorstMM: try worst(moved, .landmarks), movedLandmarksRegisteredWorstMM: try worst(moved, .registered))
    }

    private func mapFlattened(cvai: Double, side: FlatSide, plane: AsymmetryPlane) throws -> ShapeBenchResult.FlattenedMap {
        let head = try HeadModel(HeadParameters(cvai: cvai, flatSide: side))
        var options = AsymmetryOptions()
        options.plane = plane
        let map = try AsymmetryMap.compute(HeadMesh.make(head), landmarks: MeasureBenchCommand.landmarks(head), options: options)
        // The model's own depth: at the widest outline, how far each ray from the ear-line
        // centre falls short of its mirror ray; the deepest over the back.
        var depth = 0.0, at = 0.0
        for step in 0...1800 {
            let phi = Double.pi + Double(step) / 1800 * Double.pi
            let d = head.outline.reach(along: Double.pi - phi) - head.outline.reach(along: phi)
            if d > depth { (depth, at) = (d, phi) }
        }
        let deepest = map.summary.deepestPointMM
        let deepestSide = deepest[0] > 0 ? "right" : "left"
        return .init(plane: plane.rawValue, cvai: cvai, side: side.rawValue, modelDepthMM: depth * 1000, modelDepthAngleDegrees: at * 180 / Double.pi,
                     mappedDepthMM: -map.summary.maximumInwardMM, mappedSide: deepestSide,
                     mappedAngleDegrees: (atan2(deepest[1], deepest[0]) * 180 / Double.pi + 360).truncatingRemainder(dividingBy: 360),
                     planeTiltDegrees: map.summary.planeTiltDegrees, planeOffsetMM: map.summary.planeOffsetMM)
    }
}

/// Everything `headscan bench shape` reports.
struct ShapeBenchResult: TextReport {
    struct Grading: Encodable {
        var heads, nearThreshold, eligible, matched: Int
        var types: [String: Int]
        var mismatches: [String]
    }

    struct SymmetricMap: Encodable {
        var cranialIndex, worstAwayFromEarsMM, movedLandmarksWorstMM, movedLandmarksRegisteredWorstMM: Double
    }

    struct FlattenedMap: Encodable {
        var plane: String
        var cvai: Double
        var side: String
        var modelDepthMM, modelDepthAngleDegrees, mappedDepthMM: Double
        var mappedSide: String
        var mappedAngleDegrees, planeTiltDegrees, planeOffsetMM: Double
    }

    var grading: Grading
    var symmetric: [SymmetricMap]
    var flattened: [FlattenedMap]

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
