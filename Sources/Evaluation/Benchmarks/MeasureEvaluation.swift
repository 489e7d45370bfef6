import Cephalometry
import Foundation
import Geometry
import Simulation

/// The measurement checked against the simulator's exact heads: its speed on a large mesh,
/// its error, and its sensitivity to the landmarks.
public enum MeasureEvaluation {
    /// A simulated head tessellated to about 200k triangles, posed away from its head frame.
    public static func timeLargeMesh(repeats: Int) throws -> (triangles: Int, median: Double, best: Double) {
        let head = try HeadModel(HeadParameters(cvai: 8, flatSide: .left))
        let mesh = HeadMesh.skull(head, segments: 500, elevationSteps: 201)
        let pose = RigidTransform(rotation: Rotation3(yaw: 0.7, pitch: -0.4, roll: 1.1), translation: SIMD3(0.3, -1.2, 0.55))
        let posed = mesh.transformed(by: pose)
        let landmarks = head.landmarks.transformed(by: pose)
        let clock = ContinuousClock()
        var times: [Double] = []
        for _ in 0..<max(1, repeats) {
            let elapsed = try clock.measure { _ = try Cephalometer.measure(posed, landmarks: landmarks) }
            times.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
        }
        times.sort()
        return (mesh.faces.count, times[times.count / 2], times[0])
    }

    /// The simulator's heads of CVAI 0–12 on either side, measured with their true landmarks.
    public static func measureHeads() throws -> [MeasuredHead] {
        var heads: [MeasuredHead] = []
        for side in FlatSide.allCases {
            for target in [0, 3.5, 6.25, 8.75, 12] {
                let head = try HeadModel(HeadParameters(cvai: target, flatSide: side))
                let mesh = HeadMesh.make(head)
                let m = try Cephalometer.measure(mesh, landmarks: head.landmarks).measurement
                heads.append(
                    MeasuredHead(
                        side: side.rawValue, targetCVAI: target, modelCVAI: head.measurements.cvai, measuredCVAI: m.cvai,
                        cvaiError: abs(m.cvai - head.measurements.cvai), modelCI: head.measurements.ci, measuredCI: m.ci,
                        ciError: abs(m.ci - head.measurements.ci), flattenedSide: m.flattenedSide.rawValue))
            }
        }
        return heads
    }

    /// How far CVAI moves when one landmark moves ±2 mm along each head axis.
    public static func measureSensitivity() throws -> [LandmarkSensitivity] {
        let head = try HeadModel(HeadParameters(cvai: 6.25, flatSide: .right))
        let mesh = HeadMesh.make(head)
        let landmarks = head.landmarks
        let reference = try Cephalometer.measure(mesh, landmarks: landmarks).measurement.cvai
        let steps = [SIMD3<Double>(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)].flatMap { [$0 * 0.002, $0 * -0.002] }
        // In the order the benchmark has always reported them.
        return try [Landmark.nasion, .noseTip, .leftTragion, .rightTragion].map { landmark in
            var worst = 0.0
            for step in steps {
                var moved = landmarks
                moved[landmark] += step
                worst = max(worst, abs(try Cephalometer.measure(mesh, landmarks: moved).measurement.cvai - reference))
            }
            return LandmarkSensitivity(landmark: landmark.rawValue, worstCVAIChange: worst)
        }
    }
}

/// One simulator head of the exactness check.
public struct MeasuredHead: Encodable {
    public var side: String
    public var targetCVAI: Double
    public var modelCVAI: Double
    public var measuredCVAI: Double
    public var cvaiError: Double
    public var modelCI: Double
    public var measuredCI: Double
    public var ciError: Double
    public var flattenedSide: String
}

/// The largest CVAI change from moving one landmark ±2 mm along each head axis.
public struct LandmarkSensitivity: Encodable {
    public var landmark: String
    public var worstCVAIChange: Double
}
