import Foundation
import Testing

@testable import Geometry

@Suite struct LinearAlgebraTests {
    @Test func solvesASystemThatNeedsPivoting() throws {
        // The first pivot is zero, so elimination without row swaps would fail.
        let x = try LinearSolver.solve([0, 2, 1, 1, 1, 0, 2, 0, 3], [7, 3, 11])
        for (value, expected) in zip(x, [1.0, 2.0, 3.0]) { #expect(abs(value - expected) < 1e-12) }
    }

    @Test func quaternionsRoundTripAtEveryAngle() {
        // Small, right-angle and near half-turn rotations about varied axes: each branch of the
        // conversion is taken.
        for (axis, angle) in [
            (SIMD3(0.3, -0.5, 0.8), 1.1), (SIMD3(1, 0, 0), 3.1), (SIMD3(0, 1, 0), 3.14159),
            (SIMD3(0, 0, 1), 3.0), (SIMD3(1, 1, 0), 1e-9), (SIMD3(-0.2, 0.9, 0.1), 2.5),
        ] {
            let rotation = Rotation3(axis: axis, angle: angle)
            let q = rotation.quaternion
            #expect(q.w >= 0 && abs(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z - 1) < 1e-12)
            #expect(abs(q.w - cos(angle / 2)) < 1e-9, "\(axis) \(angle)")
            let back = RigidAlignment.rotationFromQuaternion(w: q.w, x: q.x, y: q.y, z: q.z)
            // Entry by entry (the angle of a near-identity goes through acos, good to 1e-8 only).
            #expect(zip(back.rowMajor, rotation.rowMajor).allSatisfy { abs($0 - $1) < 1e-12 }, "\(axis) \(angle)")
        }
    }

    @Test func singularSystemThrows() {
        #expect(throws: GeometryError.singular) { try LinearSolver.solve([1, 2, 2, 4], [1, 2]) }
    }

    @Test func leastSquaresFitsALine() throws {
        // y = 2x + 1 sampled exactly at five points.
        let xs: [Double] = [0, 1, 2, 3, 4]
        let a: [Double] = xs.flatMap { x -> [Double] in [x, 1] }
        let solution = try LinearSolver.leastSquares(a, xs.map { 2 * $0 + 1 }, columns: 2)
        #expect(abs(solution[0] - 2) < 1e-12 && abs(solution[1] - 1) < 1e-12)
    }

    @Test func matrixInverseAndDeterminant() throws {
        let m = Matrix3(rowMajor: [2, 0, 1, 1, 3, 0, 0, 1, 4])
        #expect(abs(m.determinant - 25) < 1e-12)
        let product = m * (try #require(m.inverse))
        for (value, expected) in zip(product.entries, Matrix3.identity.entries) { #expect(abs(value - expected) < 1e-12) }
        #expect(Matrix3(rowMajor: [1, 2, 3, 2, 4, 6, 0, 0, 1]).inverse == nil)
        #expect(m.transposed[0, 1] == 1)
    }
}
