import Foundation
import Geometry
import Simulation
import Testing

@testable import Cephalometry

@Suite("Simulator heads")
struct SimulatorHeadTests {
    // Two of the five targets keep debug runs quick; `headscan bench measure` runs all five.
    @Test("CVAI within 0.2 and CI within 0.5 of the simulator's exact figures", arguments: [(0.0, FlatSide.right), (8.75, FlatSide.left)])
    func simulatorHead(target: Double, side: FlatSide) throws {
        let head = try HeadModel(HeadParameters(cvai: target, flatSide: side))
        let mesh = HeadMesh.make(head).transformed(by: oddPose)
        let slice = try Cephalometer.measure(mesh, landmarks: head.landmarks.transformed(by: oddPose))
        let m = slice.measurement
        #expect(abs(m.cvai - head.measurements.cvai) < 0.2, "CVAI \(m.cvai) vs \(head.measurements.cvai)")
        #expect(abs(m.ci - head.measurements.ci) < 0.5, "CI \(m.ci) vs \(head.measurements.ci)")
        #expect(abs(m.circumferenceMM - head.measurements.circumferenceMM) < 1)
        #expect(abs(m.sliceHeightMM - head.parameters.widestOutlineHeightMM) < 2)
        if target > 0 { #expect(m.flattenedSide.rawValue == side.rawValue) }
        #expect(m.warnings.isEmpty, "\(m.warnings)")
    }

    @Test("moving a landmark by 2 mm changes CVAI by less than 0.5 points")
    func landmarkSensitivity() throws {
        let head = try HeadModel(HeadParameters(cvai: 6.25, flatSide: .right))
        let mesh = HeadMesh.make(head)
        let landmarks = head.landmarks
        let reference = try Cephalometer.measure(mesh, landmarks: landmarks).measurement.cvai
        // The moves that turn the mid-sagittal axis most (a tragion forward or back, a midline
        // point sideways); `headscan bench measure` moves every landmark along every axis.
        let moves: [(WritableKeyPath<HeadLandmarks, SIMD3<Double>>, SIMD3<Double>)] = [
            (\.leftTragion, SIMD3(0, 0.002, 0)), (\.rightTragion, SIMD3(0, -0.002, 0)),
            (\.nasion, SIMD3(0.002, 0, 0)), (\.noseTip, SIMD3(-0.002, 0, 0)),
        ]
        for (landmark, offset) in moves {
            var moved = landmarks
            moved[keyPath: landmark] += offset
            let cvai = try Cephalometer.measure(mesh, landmarks: moved).measurement.cvai
            #expect(abs(cvai - reference) < 0.5, "\(landmark) by \(offset): \(cvai) vs \(reference)")
        }
    }
}
