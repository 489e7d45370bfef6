import Foundation
import Geometry
import Testing

@testable import Cephalometry

/// Every measure of closed-form heads in arbitrary poses within 0.5 % of its independently
/// integrated value (values near zero: within 0.5 % of the quantity they are a difference of).
@Suite("Shape measures of closed-form heads")
struct ShapeMeasureTests {
    static let heads: [(String, Superellipsoid)] = [
        ("ellipsoid", Superellipsoid()),
        ("squarish superellipsoid", Superellipsoid(a: 0.062, b: 0.068, n: 2.6, m: 2.4)),
        ("sheared ellipsoid", Superellipsoid(shear: 0.14)),
        ("sheared superellipsoid, far forward", Superellipsoid(a: 0.055, b: 0.074, n: 2.3, m: 2.2, shear: -0.1, forward: 0.012, equator: 0.035)),
    ]

    static let poses = [
        RigidTransform(rotation: Rotation3(yaw: 0.7, pitch: -0.4, roll: 1.1), translation: SIMD3(0.3, -1.2, 0.55)),
        RigidTransform(rotation: Rotation3(yaw: -2.2, pitch: 1.3, roll: -0.3), translation: SIMD3(-4, 0.02, 7)),
    ]

    func within(_ value: Double, _ expected: Double, relative: Double = 0.005, of scale: Double? = nil) -> Bool {
        abs(value - expected) <= relative * abs(scale ?? expected)
    }

    @Test("volumes, ratios, slice measures and height match the closed form", arguments: 0..<4)
    func closedForm(index: Int) throws {
        let (name, head) = Self.heads[index]
        let pose = Self.poses[index % 2]
        let slice = try Cephalometer.measure(head.mesh().transformed(by: pose), landmarks: head.landmarks.transformed(by: pose))
        let m = slice.measurement
        let shape = try #require(m.shape)
        let z = slice.height

        let q = head.quadrantVolumes()
        let v = shape.quadrantVolumes
        let total = q[0] + q[1] + q[2] + q[3]
        #expect(within(shape.cranialVolumeCM3, total), "\(name): volume \(shape.cranialVolumeCM3) vs \(total)")
        for (got, want, which) in [
            (v.frontLeftCM3, q[0], "FL"), (v.frontRightCM3, q[1], "FR"), (v.backLeftCM3, q[2], "BL"), (v.backRightCM3, q[3], "BR"),
        ] {
            #expect(within(got, want), "\(name): \(which) \(got) vs \(want)")
        }
        func ratio(_ a: Double, _ b: Double) -> Double { min(a, b) / max(a, b) * 100 }
        #expect(within(shape.anteriorSymmetryRatio, ratio(q[0], q[1])), "\(name): ASR \(shape.anteriorSymmetryRatio) vs \(ratio(q[0], q[1]))")
        #expect(within(shape.posteriorSymmetryRatio, ratio(q[2], q[3])), "\(name): PSR \(shape.posteriorSymmetryRatio) vs \(ratio(q[2], q[3]))")
        #expect(within(shape.overallSymmetryRatio, ratio(q[0] + q[2], q[1] + q[3])), "\(name): OSR")
        #expect(within(shape.cranialHeightMM, (head.equator + head.height) * 1000), "\(name): height \(shape.cranialHeightMM)")

        // The slice measures at the height the product chose.
        let outline = head.boundary(z: z)
        func reach(_ degrees: Double) -> Double {
            let t = degrees * Double.pi / 180
            return head.reach(from: .zero, along: SIMD2(cos(t), sin(t)), z: z) * 1000
        }
        let diagonalA = reach(120) + reach(300), diagonalB = reach(60) + reach(240)
        let width = (outline.map(\.x).max()! - outline.map(\.x).min()!) * 1000
        let length = (outline.map(\.y).max()! - outline.map(\.y).min()!) * 1000
        #expect(within(m.diagonalAMM, diagonalA), "\(name): A \(m.diagonalAMM) vs \(diagonalA)")
        #expect(within(m.diagonalBMM, diagonalB), "\(name): B \(m.diagonalBMM) vs \(diagonalB)")
        #expect(within(m.cvaMM, abs(diagonalA - diagonalB), of: diagonalA), "\(name): CVA \(m.cvaMM)")
        #expect(within(m.cvai, abs(diagonalA - diagonalB) / max(diagonalA, diagonalB) * 100, of: 100), "\(name): CVAI \(m.cvai)")
        #expect(within(m.ci, width / length * 100), "\(name): CI \(m.ci) vs \(width / length * 100)")
        #expect(within(m.circumferenceMM, Polygon2(outline).perimeter * 1000), "\(name): circumference")

        let rsi = head.radialSymmetryIndex(z: z)
        #expect(within(shape.radialSymmetryIndexMM, rsi, of: max(rsi, 0.1 * diagonalA)), "\(name): RSI \(shape.radialSymmetryIndexMM) vs \(rsi)")
        let longest = head.longestChord(z: z)
        #expect(within(shape.longestDiagonalMM, longest.mm), "\(name): longest \(shape.longestDiagonalMM) vs \(longest.mm)")
        let forehead = head.foreheadAngle(z: z)
        #expect(within(try #require(shape.foreheadAngleDegrees), forehead), "\(name): forehead \(shape.foreheadAngleDegrees ?? 0) vs \(forehead)")
        #expect(abs(shape.earOffsetMM) < 0.01, "\(name): ear offset \(shape.earOffsetMM)")
    }

    @Test("the longest diagonal of an ellipse turned by a shear lies along its major axis")
    func longestDiagonalAngle() throws {
        let head = Superellipsoid(a: 0.05, b: 0.075, shear: 0.25, forward: 0)
        let pose = Self.poses[0]
        let slice = try Cephalometer.measure(head.mesh().transformed(by: pose), landmarks: head.landmarks.transformed(by: pose))
        let shape = try #require(slice.measurement.shape)
        let expected = head.longestChord(z: slice.height)
        // x = X + 0.25·Y leans the major axis toward the infant's right (negative angles).
        #expect(expected.degrees < -3)
        #expect(abs(shape.longestDiagonalAngleDegrees - expected.degrees) < 0.5, "\(shape.longestDiagonalAngleDegrees) vs \(expected.degrees)")
    }

    @Test("ear offset is the tragions' distance along the line to the nasion", arguments: [0.006, -0.004])
    func earOffset(shift: Double) throws {
        let head = Superellipsoid()
        var landmarks = head.landmarks
        landmarks.rightTragion.y += shift / 2
        landmarks.leftTragion.y -= shift / 2
        let pose = Self.poses[1]
        let slice = try Cephalometer.measure(head.mesh().transformed(by: pose), landmarks: landmarks.transformed(by: pose))
        // In the description's frame the nasion is straight ahead of the tragion midpoint.
        #expect(abs(try #require(slice.measurement.shape).earOffsetMM - shift * 1000) < 0.005 * 1000 * abs(shift))
    }

    @Test("Sutherland–Hodgman keeps the exact area of a non-convex polygon cut in two")
    func clipping() {
        // A U shape: 3×3 square without the middle column's top two cells.
        let u = Polygon2([SIMD2(0, 0), SIMD2(3, 0), SIMD2(3, 3), SIMD2(2, 3), SIMD2(2, 1), SIMD2(1, 1), SIMD2(1, 3), SIMD2(0, 3)])
        #expect(abs(u.clipped(keeping: SIMD2(0, 1), offset: 2).signedArea.magnitude - 2) < 1e-12)
        #expect(abs(u.area(inQuarter: SIMD2(1, 0), SIMD2(0, 1)) - 7) < 1e-12)
        #expect(u.clipped(keeping: SIMD2(0, 1), offset: 5).points.isEmpty)
    }
}
