import Foundation
import Geometry
import Testing

@testable import Simulation

struct HeadModelTests {
    @Test(arguments: [0.0, 3.5, 6.25, 8.75, 12])
    func analyticModelHitsItsTargets(cvai: Double) throws {
        let head = try HeadModel(HeadParameters(lengthMM: 145, cranialIndex: 84, cvai: cvai, flatSide: .left))
        #expect(abs(head.measurements.cvai - cvai) < 1e-6)
        #expect(abs(head.measurements.ci - 84) < 1e-6)
        #expect(abs(head.measurements.lengthMM - 145) < 1e-6)
        if cvai > 0 {
            // Left flattening shortens B (front-right to back-left).
            #expect(head.measurements.diagonalAMM > head.measurements.diagonalBMM)
        }
    }

    @Test(arguments: [FlatSide.left, .right])
    func meshMeasurementAgreesWithTheModel(side: FlatSide) throws {
        let head = try HeadModel(HeadParameters(cvai: 8.75, flatSide: side))
        let (measured, height) = try #require(MeshMeasurement.measure(HeadMesh.make(head), searchTop: 0.06))
        #expect(abs(measured.cvai - 8.75) < 0.1)
        #expect(abs(measured.ci - head.measurements.ci) < 0.1)
        #expect(abs(measured.circumferenceMM - head.measurements.circumferenceMM) < 0.5)
        #expect(abs(height - head.widestHeight) < 0.001)
        #expect((measured.diagonalAMM > measured.diagonalBMM) == (side == .left))
    }

    @Test func meshIsClosedAndOutwardFacing() throws {
        let head = try HeadModel(HeadParameters())
        for part in [HeadMesh.skull(head), HeadMesh.ear(head, side: 1), HeadMesh.nose(head)] {
            #expect(part.isValid)
            #expect(part.volume > 0)
            // Closed: every edge is shared by exactly two faces.
            var edges: [SIMD2<Int32>: Int] = [:]
            for f in part.faces {
                for (a, b) in [(f.x, f.y), (f.y, f.z), (f.z, f.x)] { edges[SIMD2(min(a, b), max(a, b)), default: 0] += 1 }
            }
            #expect(edges.values.allSatisfy { $0 == 2 })
        }
    }

    @Test func landmarksLieOnTheReferencePlaneAndTheSurface() throws {
        let head = try HeadModel(HeadParameters(cvai: 5))
        let l = head.landmarks
        #expect(l.nasion.z == 0 && l.leftTragion.z == 0 && l.rightTragion.z == 0)
        // The origin is the tragion midpoint even on a flattened head.
        #expect(abs(l.leftTragion.x + l.rightTragion.x) < 1e-9)
        #expect(l.leftTragion.x < 0 && l.rightTragion.x > 0)
        #expect(l.noseTip.y > l.nasion.y && l.noseTip.z < 0)
        // The tragion is on the outline scaled to the reference plane.
        let p = SIMD2(l.rightTragion.x, 0) - head.outline.centre
        let r = head.outline.radius(at: atan2(p.y, p.x)) * head.scale(atHeight: 0)
        #expect(abs((p * p).sum().squareRoot() - r) < 1e-9)
    }

    @Test func implausibleHeadsAreRefused() {
        #expect(throws: SimulationError.self) { try HeadModel(HeadParameters(lengthMM: 300)) }
        #expect(throws: SimulationError.self) { try HeadModel(HeadParameters(cvai: -1)) }
    }
}
