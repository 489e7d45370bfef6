import Cephalometry
import Foundation
import Geometry
import Simulation

/// The head-shape grading and the asymmetry map checked on the simulator's exact heads.
public enum ShapeEvaluation {
    /// `heads` random heads graded from their measurement and from their truth.
    public static func gradeHeads(_ heads: Int, seed: UInt64, progress: (Int, Int) -> Void) throws -> ShapeBenchResult.Grading {
        var random = SplitMix64(seed: seed)
        let thresholds = ShapeThresholds()
        var eligible = 0, matched = 0, nearThreshold = 0
        var mismatches: [String] = []
        var types: [String: Int] = [:]
        for index in 0..<heads {
            progress(index + 1, heads)
            let parameters = HeadParameters(
                lengthMM: random.uniform(120...160), cranialIndex: random.uniform(68...104), cvai: random.uniform(0...15),
                flatSide: random.unit() < 0.5 ? .left : .right)
            let head = try HeadModel(parameters)
            let m = try Cephalometer.measure(HeadMesh.make(head), landmarks: head.landmarks).measurement
            let t = head.measurements
            let truth = ShapeAssessment(
                HeadMeasurement(
                    diagonalA: t.diagonalAMM / 1000, diagonalB: t.diagonalBMM / 1000, length: t.lengthMM / 1000,
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
                mismatches.append(
                    String(
                        format: "CI %.2f CVAI %.2f: truth %@ level %d, measured CI %.2f CVAI %.2f → %@ level %d",
                        t.ci, t.cvai, truth.type.rawValue, truth.choaLevel.rawValue, m.ci, m.cvai, got.type.rawValue, got.choaLevel.rawValue))
            }
        }
        return .init(heads: heads, nearThreshold: nearThreshold, eligible: eligible, matched: matched, types: types, mismatches: mismatches)
    }

    /// A symmetric head mapped with its true landmarks, and with the nasion 1 mm to the side
    /// and the right tragion 1 mm up (a careful hand's error) across either plane.
    public static func mapSymmetric(ci: Double) throws -> ShapeBenchResult.SymmetricMap {
        let head = try HeadModel(HeadParameters(cranialIndex: ci, cvai: 0))
        let mesh = HeadMesh.make(head)
        var ears = HeadMesh.ear(head, side: -1)
        ears.append(HeadMesh.ear(head, side: 1))
        guard let earGrid = ClosestPointGrid(ears, cellSize: 0.005) else { throw EvaluationError("the simulated ears have no surface") }
        let awayFromEars = mesh.vertices.map { earGrid.closest(to: $0, maximumDistance: 0.010) == nil }
        func worst(_ landmarks: HeadLandmarks, _ plane: AsymmetryPlane) throws -> Double {
            var options = AsymmetryOptions()
            options.plane = plane
            let map = try AsymmetryMap.compute(mesh, landmarks: landmarks, options: options)
            return zip(map.valuesMM, awayFromEars).filter { !$0.0.isNaN && $0.1 }.map { abs($0.0) }.max() ?? 0
        }
        var moved = head.landmarks
        moved.nasion.x += 0.001
        moved.rightTragion.z += 0.001
        return .init(
            cranialIndex: ci, worstAwayFromEarsMM: try worst(head.landmarks, .landmarks),
            movedLandmarksWorstMM: try worst(moved, .landmarks), movedLandmarksRegisteredWorstMM: try worst(moved, .registered))
    }

    /// A flattened head mapped with its true landmarks, against the model's own depth.
    public static func mapFlattened(cvai: Double, side: FlatSide, plane: AsymmetryPlane) throws -> ShapeBenchResult.FlattenedMap {
        let head = try HeadModel(HeadParameters(cvai: cvai, flatSide: side))
        var options = AsymmetryOptions()
        options.plane = plane
        let map = try AsymmetryMap.compute(HeadMesh.make(head), landmarks: head.landmarks, options: options)
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
        return .init(
            plane: plane.rawValue, cvai: cvai, side: side.rawValue, modelDepthMM: depth * 1000, modelDepthAngleDegrees: at * 180 / Double.pi,
            mappedDepthMM: -map.summary.maximumInwardMM, mappedSide: deepestSide,
            mappedAngleDegrees: (atan2(deepest[1], deepest[0]) * 180 / Double.pi + 360).truncatingRemainder(dividingBy: 360),
            planeTiltDegrees: map.summary.planeTiltDegrees, planeOffsetMM: map.summary.planeOffsetMM)
    }
}

/// Everything `headscan bench shape` reports.
public struct ShapeBenchResult: Encodable {
    public struct Grading: Encodable {
        public var heads, nearThreshold, eligible, matched: Int
        public var types: [String: Int]
        public var mismatches: [String]
    }

    public struct SymmetricMap: Encodable {
        public var cranialIndex, worstAwayFromEarsMM, movedLandmarksWorstMM, movedLandmarksRegisteredWorstMM: Double
    }

    public struct FlattenedMap: Encodable {
        public var plane: String
        public var cvai: Double
        public var side: String
        public var modelDepthMM, modelDepthAngleDegrees, mappedDepthMM: Double
        public var mappedSide: String
        public var mappedAngleDegrees, planeTiltDegrees, planeOffsetMM: Double
    }

    public var grading: Grading
    public var symmetric: [SymmetricMap]
    public var flattened: [FlattenedMap]

    public init(grading: Grading, symmetric: [SymmetricMap], flattened: [FlattenedMap]) {
        (self.grading, self.symmetric, self.flattened) = (grading, symmetric, flattened)
    }
}
