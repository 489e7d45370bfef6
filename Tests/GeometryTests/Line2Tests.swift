import Testing

@testable import Geometry

@Suite struct Line2Tests {
    @Test func fitRecoversAVerticalLine() throws {
        let points = (0..<10).map { SIMD2<Double>(3.25, Double($0)) }
        let line = try #require(Line2.fit(points: points))
        #expect(abs(line.signedDistance(to: SIMD2(3.25, 100))) < 1e-12)
        #expect(abs(abs(line.direction.y) - 1) < 1e-12)
    }

    @Test func weightsDecideBetweenOutliersAndInliers() throws {
        var points = (0..<10).map { SIMD2<Double>(Double($0), 0.5 * Double($0)) }
        var weights = [Double](repeating: 1, count: points.count)
        points.append(SIMD2(5, 40))
        weights.append(0)
        let line = try #require(Line2.fit(points: points, weights: weights))
        #expect(abs(line.signedDistance(to: SIMD2(20, 10))) < 1e-9)
    }

    @Test func intersectionOfTwoLines() throws {
        let a = Line2(through: SIMD2(0, 0), SIMD2(4, 4))
        let b = Line2(through: SIMD2(0, 4), SIMD2(4, 0))
        let p = try #require(a.intersection(with: b))
        #expect(abs(p.x - 2) < 1e-12 && abs(p.y - 2) < 1e-12)
        #expect(a.intersection(with: Line2(through: SIMD2(1, 0), SIMD2(5, 4))) == nil)
    }

    @Test func signedDistanceIsPositiveOnTheNormalSide() {
        // Along +x on screen, the normal points up (negative y).
        let line = Line2(through: SIMD2(0, 0), SIMD2(1, 0))
        #expect(line.normal == SIMD2(0, -1))
        #expect(line.signedDistance(to: SIMD2(0, -2)) == 2)
    }

    @Test func fitNeedsSpreadPoints() {
        #expect(Line2.fit(points: [SIMD2(1, 1), SIMD2(1, 1)]) == nil)
        #expect(Line2.fit(points: []) == nil)
    }
}
