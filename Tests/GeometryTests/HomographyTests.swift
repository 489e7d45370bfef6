import Testing

@testable import Geometry

@Suite struct HomographyTests {
    let truth = Homography(Matrix3(rowMajor: [1.2, 0.1, 30, -0.2, 0.9, 12, 0.0008, -0.0005, 1]))

    func close(_ a: SIMD2<Double>, _ b: SIMD2<Double>, _ tolerance: Double = 1e-9) -> Bool {
        let d = a - b
        return (d * d).sum().squareRoot() <= tolerance
    }

    @Test func fitFromFourPointsReproducesTheMap() throws {
        let source: [SIMD2<Double>] = [SIMD2(0, 0), SIMD2(100, 0), SIMD2(100, 80), SIMD2(0, 80)]
        let target = source.map(truth.apply)
        let fitted = try Homography.fit(from: source, to: target)
        for p in [SIMD2<Double>(50, 40), SIMD2(-20, 130), SIMD2(7, 3)] {
            #expect(close(fitted.apply(p), truth.apply(p), 1e-7))
        }
    }

    @Test func fitFromManyPointsIsLeastSquaresExactWithoutNoise() throws {
        var source: [SIMD2<Double>] = []
        for i in 0..<5 { for j in 0..<4 { source.append(SIMD2(Double(i) * 23, Double(j) * 31)) } }
        let fitted = try Homography.fit(from: source, to: source.map(truth.apply))
        #expect(close(fitted.apply(SIMD2(11, 17)), truth.apply(SIMD2(11, 17)), 1e-7))
    }

    @Test func unitSquareMapAgreesWithTheGeneralFit() throws {
        let corners: [SIMD2<Double>] = [SIMD2(10, 12), SIMD2(52, 8), SIMD2(60, 49), SIMD2(6, 40)]
        let square: [SIMD2<Double>] = [SIMD2(0, 0), SIMD2(1, 0), SIMD2(1, 1), SIMD2(0, 1)]
        let closed = try Homography.unitSquare(to: corners)
        let fitted = try Homography.fit(from: square, to: corners)
        for (s, c) in zip(square, corners) { #expect(close(closed.apply(s), c)) }
        #expect(close(closed.apply(SIMD2(0.3, 0.7)), fitted.apply(SIMD2(0.3, 0.7)), 1e-8))
    }

    @Test func inverseUndoesTheMap() throws {
        let inverse = try #require(truth.inverse)
        let p = SIMD2<Double>(33, -7)
        #expect(close(inverse.apply(truth.apply(p)), p, 1e-9))
    }

    @Test func collinearPointsAreRejected() {
        let line: [SIMD2<Double>] = [SIMD2(0, 0), SIMD2(1, 1), SIMD2(2, 2), SIMD2(3, 3)]
        #expect(throws: GeometryError.self) { try Homography.unitSquare(to: line) }
        #expect(throws: GeometryError.self) { try Homography.fit(from: line, to: line) }
    }

    @Test func tooFewPointsAreRejected() {
        #expect(throws: GeometryError.notEnoughPoints(needed: 4, got: 3)) {
            try Homography.fit(from: [.zero, .one, SIMD2(1, 0)], to: [.zero, .one, SIMD2(1, 0)])
        }
    }
}
