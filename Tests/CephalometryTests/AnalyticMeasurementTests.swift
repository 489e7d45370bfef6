import Foundation
import Geometry
import Testing

@testable import Cephalometry

@Suite("Analytic heads")
struct AnalyticMeasurementTests {
    /// Diagonals, extents and circumference within 0.1 mm; CVAI and CI within 0.05 points.
    func expectClose(_ m: HeadMeasurement, _ e: HeadMeasurement, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(abs(m.diagonalAMM - e.diagonalAMM) < 0.1, "A \(m.diagonalAMM) vs \(e.diagonalAMM)", sourceLocation: sourceLocation)
        #expect(abs(m.diagonalBMM - e.diagonalBMM) < 0.1, "B \(m.diagonalBMM) vs \(e.diagonalBMM)", sourceLocation: sourceLocation)
        #expect(abs(m.lengthMM - e.lengthMM) < 0.1, "length \(m.lengthMM) vs \(e.lengthMM)", sourceLocation: sourceLocation)
        #expect(abs(m.widthMM - e.widthMM) < 0.1, "width \(m.widthMM) vs \(e.widthMM)", sourceLocation: sourceLocation)
        #expect(
            abs(m.circumferenceMM - e.circumferenceMM) < 0.1, "perimeter \(m.circumferenceMM) vs \(e.circumferenceMM)", sourceLocation: sourceLocation
        )
        #expect(abs(m.cvai - e.cvai) < 0.05, "CVAI \(m.cvai) vs \(e.cvai)", sourceLocation: sourceLocation)
        #expect(abs(m.ci - e.ci) < 0.05, "CI \(m.ci) vs \(e.ci)", sourceLocation: sourceLocation)
        #expect(abs(m.sliceHeightMM - e.sliceHeightMM) < 0.5, "slice \(m.sliceHeightMM) vs \(e.sliceHeightMM)", sourceLocation: sourceLocation)
    }

    @Test("an ellipsoid in an arbitrary pose gives the closed-form values")
    func ellipsoid() throws {
        let head = AnalyticHead(halfWidth: 0.058, halfLength: 0.071)
        let mesh = head.mesh().transformed(by: oddPose)
        let slice = try Cephalometer.measure(mesh, landmarks: head.landmarks.transformed(by: oddPose))
        expectClose(slice.measurement, head.expected)
        #expect(slice.measurement.cvai < 0.01)
        #expect(slice.measurement.flattenedSide == .none)
        #expect(slice.measurement.warnings.isEmpty)
    }

    @Test("a sheared, off-centre, leaning ellipsoid gives the closed-form values", arguments: [0.12, -0.2])
    func shearedEllipsoid(shear: Double) throws {
        var head = AnalyticHead(halfWidth: 0.06, halfLength: 0.072, shear: shear)
        head.centre = SIMD2(0.002, 0.006)
        head.lean = SIMD2(0.15, -0.1)
        let slice = try Cephalometer.measure(head.mesh().transformed(by: oddPose), landmarks: head.landmarks.transformed(by: oddPose))
        let expected = head.expected
        expectClose(slice.measurement, expected)
        #expect(expected.cvai > 3, "the shear makes a clearly asymmetric head")
        #expect(slice.measurement.flattenedSide == expected.flattenedSide)
        #expect(slice.measurement.flattenedSide == (shear > 0 ? .right : .left))
    }

    @Test("Ramanujan's second formula matches a dense polygon of the ellipse")
    func ramanujanFormula() {
        let a = 0.06, b = 0.075
        let polygon = Polygon2(
            (0..<100_000).map { i in
                let t = Double(i) / 100_000 * 2 * Double.pi
                return SIMD2(a * cos(t), b * sin(t))
            })
        #expect(abs(polygon.perimeter - ramanujan(a, b)) < 1e-7)
    }

    @Test("worked example: A 150 mm, B 140 mm gives CVAI 6.67 %, CVA 10 mm, CHOA level 3")
    func workedExample() {
        let m = HeadMeasurement(diagonalA: 0.150, diagonalB: 0.140, length: 0.15, width: 0.12, perimeter: 0.44)
        #expect(abs(m.cvai - 6.67) < 0.005)
        #expect(abs(m.cvaMM - 10) < 1e-9)
        #expect(m.severityLevel == .level3)
        #expect(m.flattenedSide == .left)
        #expect(abs(m.ci - 80) < 1e-9)
    }

    @Test("CHOA severity boundaries 3.5, 6.25, 8.75 and 11")
    func severityBoundaries() {
        let cases: [(Double, SeverityLevel)] = [
            (0, .level1), (3.49, .level1), (3.5, .level2), (6.24, .level2), (6.25, .level3), (8.74, .level3),
            (8.75, .level4), (11, .level4), (11.01, .level5), (25, .level5),
        ]
        for (cvai, level) in cases {
            #expect(SeverityLevel(cvai: cvai) == level, "CVAI \(cvai)")
        }
    }
}
