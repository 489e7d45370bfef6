import Foundation
import Testing

@testable import Geometry

/// The solver kernels against analytic answers: a matrix whose Cholesky factor is known in
/// integers, a pose-sized block eliminated against the full solve, and Levenberg–Marquardt on
/// Rosenbrock's valley and on a line.
@Suite struct SolverKernelTests {
    /// `A = L Lᵀ` with `L = [2 0 0; 6 1 0; -8 5 3]`, and `A x = b` for `x = (1, 2, 3)`.
    static let spd: [Double] = [4, 12, -16, 12, 37, -43, -16, -43, 98]
    static let factor: [Double] = [2, 0, 0, 6, 1, 0, -8, 5, 3]

    @Test func theFactorOfAKnownMatrixIsExact() {
        var a = Self.spd
        #expect(Cholesky.factor(&a, 3))
        for i in 0..<3 {
            for j in 0...i { #expect(a[i * 3 + j] == Self.factor[i * 3 + j], "L[\(i), \(j)]") }
        }
    }

    @Test func solvesAKnownSystem() throws {
        var a = Self.spd
        let x = try #require(Cholesky.solve(&a, [-20, -43, 192], 3))
        for (value, expected) in zip(x, [1.0, 2.0, 3.0]) { #expect(abs(value - expected) < 1e-12) }
        // The forward half alone: L y = b, with y = Lᵀ x = (2·1 + 6·2 − 8·3, 2 + 5·3, 3·3).
        let y = Cholesky.forwardSubstitute(Self.factor, [-20, -43, 192], 3)
        for (value, expected) in zip(y, [-10.0, 17.0, 9.0]) { #expect(abs(value - expected) < 1e-12) }
    }

    @Test func theInverseTimesTheMatrixIsTheIdentity() throws {
        let inverse = try #require(Cholesky.inverse(Self.spd, 3))
        let product = LinearSolver.multiply(Self.spd, rows: 3, inner: 3, inverse, columns: 3)
        for i in 0..<3 {
            for j in 0..<3 { #expect(abs(product[i * 3 + j] - (i == j ? 1 : 0)) < 1e-9, "(\(i), \(j))") }
        }
    }

    @Test func aMatrixThatIsNotPositiveDefiniteIsRefused() {
        var indefinite: [Double] = [1, 2, 2, 1]
        #expect(!Cholesky.factor(&indefinite, 2))
        var singular: [Double] = [1, 1, 1, 1]
        #expect(Cholesky.solve(&singular, [1, 1], 2) == nil)
        #expect(Cholesky.inverse([0, 0, 0, 0], 2) == nil)
        var empty: [Double] = []
        #expect(Cholesky.factor(&empty, 0))
    }

    @Test func eliminatingASixBlockGivesTheFullSolution() throws {
        // Unknowns 0..<6 are the block, 6..<9 are kept; the full system is a random SPD one.
        var random = Xoshiro256(seed: 7)
        let n = 9
        let m = (0..<(n * n)).map { _ in random.unitDouble() * 2 - 1 }
        var full = LinearSolver.multiply(m, rows: n, inner: n, (0..<(n * n)).map { m[($0 % n) * n + $0 / n] }, columns: n)
        for i in 0..<n { full[i * n + i] += 1 }
        let rhs = (0..<n).map { _ in random.unitDouble() * 2 - 1 }
        let expected = try LinearSolver.solve(full, rhs)

        var h = (0..<36).map { full[($0 / 6) * n + $0 % 6] }
        #expect(Cholesky.factor(&h, 6))
        // The block's coupling to the kept unknowns, 6x3, given as a 6x2 and a 6x1 block.
        let coupling = (0..<6).map { r in (6..<9).map { full[r * n + $0] } }
        let blocks: [(block: [Double], width: Int)] = [
            (coupling.flatMap { Array($0[0..<2]) }, 2), (coupling.map { $0[2] }, 1),
        ]
        var s = [Double](repeating: 0, count: n * n), b = [Double](repeating: 0, count: n)
        for i in 6..<9 {
            b[i] = rhs[i]
            for j in 6..<9 { s[i * n + j] = full[i * n + j] }
        }
        SchurComplement.eliminateSix(
            factor: h, gradient: Array(rhs[0..<6]), couplings: blocks, columns: [6, 7, 8], from: &s, &b, n: n)
        var reduced = (6..<9).flatMap { i in (6..<9).map { s[i * n + $0] } }
        let kept = try #require(Cholesky.solve(&reduced, Array(b[6..<9]), 3))
        for (value, wanted) in zip(kept, expected[6..<9]) { #expect(abs(value - wanted) < 1e-9) }
        // Entries outside the columns named stay untouched.
        #expect(s[0] == 0 && s[5 * n + 5] == 0)
    }

    /// A random symmetric positive definite n x n matrix, `M Mᵀ / n + I`.
    static func randomSPD(_ n: Int, seed: UInt64) -> [Double] {
        var random = Xoshiro256(seed: seed)
        let m = (0..<(n * n)).map { _ in random.unitDouble() * 2 - 1 }
        var a = [Double](repeating: 0, count: n * n)
        for i in 0..<n {
            for j in 0...i {
                var t = 0.0
                for q in 0..<n { t += m[i * n + q] * m[j * n + q] }
                a[i * n + j] = t / Double(n) + (i == j ? 1 : 0)
                a[j * n + i] = a[i * n + j]
            }
        }
        return a
    }

    @Test(arguments: [16, 17, 18, 19, 64, 131])
    func fourColumnsAtATimeGiveTheSameBitsAsOne(n: Int) throws {
        let a = Self.randomSPD(n, seed: UInt64(n))
        var byColumns = a, inPanels = a
        #expect(Cholesky.factorByColumns(&byColumns, n))
        #expect(Cholesky.factorInPanels(&inPanels, n))
        for i in 0..<n {
            for j in 0...i where byColumns[i * n + j].bitPattern != inPanels[i * n + j].bitPattern {
                Issue.record("L[\(i), \(j)]: \(byColumns[i * n + j]) one column at a time, \(inPanels[i * n + j]) four")
                return
            }
        }
        // And it is a factor: L Lᵀ gives the matrix back.
        for i in 0..<n {
            for j in 0...i {
                var t = 0.0
                for q in 0...j { t += inPanels[i * n + q] * inPanels[j * n + q] }
                #expect(abs(t - a[i * n + j]) < 1e-12, "(\(i), \(j))")
            }
        }
    }

    @Test func fourColumnsAtATimeRefuseAMatrixThatIsNotPositiveDefinite() {
        // Column 21 (inside a panel, past its first column) made dependent on column 5.
        let n = 40
        var a = Self.randomSPD(n, seed: 3)
        for q in 0..<n {
            a[21 * n + q] = a[5 * n + q]
            a[q * n + 21] = a[q * n + 5]
        }
        a[21 * n + 21] = a[5 * n + 5]
        var byColumns = a, inPanels = a
        #expect(!Cholesky.factorByColumns(&byColumns, n))
        #expect(!Cholesky.factorInPanels(&inPanels, n))
        #expect(!Cholesky.factor(&a, n))
    }

    @Test func theGramInTheLowerHalfIsTheOneBothHalvesTook() {
        var random = Xoshiro256(seed: 11)
        let n = 50
        let start = (0..<(n * n)).map { _ in random.unitDouble() }
        for columns in [[31, 4, 17, 5, 44, 0, 23], [9, 2, 9, 40]] {
            let w = (0..<(columns.count * 6)).map { _ in random.unitDouble() * 2 - 1 }
            var lower = start, both = start
            SchurComplement.subtractGram(w, columns: columns, from: &lower, n: n)
            SchurComplement.subtractGramInBothHalves(w, columns: columns, from: &both, n: n)
            var changed = 0
            for i in 0..<n {
                for j in 0...i {
                    #expect(lower[i * n + j].bitPattern == both[i * n + j].bitPattern, "\(columns): (\(i), \(j))")
                    if lower[i * n + j] != start[i * n + j] { changed += 1 }
                }
            }
            let distinct = Set(columns).count
            #expect(changed == distinct * (distinct + 1) / 2, "every pair of the columns named, once")
        }
    }

    /// Rosenbrock's function as least squares: r = (10 (y − x²), 1 − x), minimum 0 at (1, 1).
    static func rosenbrockStep(_ p: SIMD2<Double>, _ damping: Double) -> SIMD2<Double>? {
        let r = SIMD2(10 * (p.y - p.x * p.x), 1 - p.x)
        let j: [Double] = [-20 * p.x, 10, -1, 0]
        var h: [Double] = [j[0] * j[0] + j[2] * j[2], j[0] * j[1] + j[2] * j[3], 0, j[1] * j[1] + j[3] * j[3]]
        h[2] = h[1]
        let g = [j[0] * r.x + j[2] * r.y, j[1] * r.x + j[3] * r.y]
        h[0] += damping * h[0]
        h[3] += damping * h[3]
        guard let d = Cholesky.solve(&h, g.map { -$0 }, 2) else { return nil }
        return p + SIMD2(d[0], d[1])
    }

    static func rosenbrock(_ p: SIMD2<Double>) -> Double {
        let r = SIMD2(10 * (p.y - p.x * p.x), 1 - p.x)
        return (r * r).sum()
    }

    @Test func levenbergMarquardtFindsTheBottomOfRosenbrocksValley() {
        var loop = LevenbergMarquardt(iterations: 200)
        loop.relativeImprovement = 0
        let outcome = loop.minimise(
            from: SIMD2(-1.2, 1), cost: Self.rosenbrock, linearise: { $0 }, step: { p, _, damping in Self.rosenbrockStep(p, damping) })
        #expect(outcome.initialCost == Self.rosenbrock(SIMD2(-1.2, 1)))
        #expect(abs(outcome.state.x - 1) < 1e-6 && abs(outcome.state.y - 1) < 1e-6, "\(outcome.state)")
        #expect(outcome.cost < 1e-12)
    }

    @Test func stepsOutsideTheBoundsAreNotTaken() {
        let outcome = LevenbergMarquardt(iterations: 50).minimise(
            from: SIMD2(-1.2, 1), cost: Self.rosenbrock, linearise: { $0 }, step: { p, _, damping in Self.rosenbrockStep(p, damping) },
            isAdmissible: { $0.x <= 0.5 })
        #expect(outcome.state.x <= 0.5)
        #expect(outcome.cost < outcome.initialCost)
    }

    @Test func levenbergMarquardtFitsALine() {
        // y = 2x − 1 exactly: a linear problem, solved by the first damped steps.
        let xs: [Double] = [-2, -1, 0, 1, 3]
        let ys = xs.map { 2 * $0 - 1 }
        func cost(_ p: SIMD2<Double>) -> Double { zip(xs, ys).reduce(0) { $0 + pow(p.x * $1.0 + p.y - $1.1, 2) } }
        var count = 0
        let outcome = LevenbergMarquardt(iterations: 30).minimise(
            from: SIMD2(0, 0), cost: cost,
            linearise: { p -> ([Double], [Double]) in
                count += 1
                var h = [Double](repeating: 0, count: 4), g = [0.0, 0.0]
                for (x, y) in zip(xs, ys) {
                    let r = p.x * x + p.y - y
                    h[0] += x * x; h[1] += x; h[2] += x; h[3] += 1
                    g[0] += x * r; g[1] += r
                }
                return (h, g)
            },
            step: { system, p, damping in
                var h = system.0
                h[0] += damping * h[0]
                h[3] += damping * h[3]
                guard let d = Cholesky.solve(&h, system.1.map { -$0 }, 2) else { return nil }
                return p + SIMD2(d[0], d[1])
            })
        #expect(abs(outcome.state.x - 2) < 1e-9 && abs(outcome.state.y + 1) < 1e-9, "\(outcome.state)")
        #expect(count < 30, "the loop stops once an iteration gains nothing")
    }

    @Test func aStepThatCannotBeSolvedRaisesTheDamping() {
        var dampings: [Double] = []
        let outcome = LevenbergMarquardt(iterations: 1).minimise(
            from: 1.0, cost: { $0 * $0 }, linearise: { _ in () },
            step: { _, x, damping in
                dampings.append(damping)
                return dampings.count < 3 ? nil : x / 2
            })
        #expect(dampings == [1e-3, 1e-2, 1e-1])
        #expect(outcome.state == 0.5 && outcome.cost == 0.25 && outcome.initialCost == 1)
    }
}
