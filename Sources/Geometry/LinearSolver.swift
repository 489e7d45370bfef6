/// Small dense linear systems, solved in place; sizes here are a handful to a few dozen.
public enum LinearSolver {
    /// Solves `a * x = b` for square `a` (row-major, n x n) by Gaussian elimination with
    /// partial pivoting. Throws `GeometryError.singular` when a pivot vanishes.
    public static func solve(_ a: [Double], _ b: [Double]) throws -> [Double] {
        let n = b.count
        precondition(a.count == n * n, "the matrix must be n x n for n right-hand entries")
        var m = a
        var x = b
        let scale = a.reduce(0) { max($0, abs($1)) }
        let tolerance = max(scale, 1e-300) * 1e-13
        for column in 0..<n {
            var pivot = column
            for row in (column + 1)..<max(n, column + 1) where abs(m[row * n + column]) > abs(m[pivot * n + column]) {
                pivot = row
            }
            guard abs(m[pivot * n + column]) > tolerance else { throw GeometryError.singular }
            if pivot != column {
                for k in 0..<n { m.swapAt(pivot * n + k, column * n + k) }
                x.swapAt(pivot, column)
            }
            let inverse = 1 / m[column * n + column]
            for row in (column + 1)..<max(n, column + 1) {
                let factor = m[row * n + column] * inverse
                if factor == 0 { continue }
                for k in column..<n { m[row * n + k] -= factor * m[column * n + k] }
                x[row] -= factor * x[column]
            }
        }
        for row in stride(from: n - 1, through: 0, by: -1) {
            var sum = x[row]
            for k in (row + 1)..<max(n, row + 1) { sum -= m[row * n + k] * x[k] }
            x[row] = sum / m[row * n + row]
        }
        return x
    }

    /// Least-squares solution of the overdetermined `a * x ≈ b` (`a` row-major, rows x n)
    /// through the normal equations; fine for the well-conditioned, normalised problems here.
    public static func leastSquares(_ a: [Double], _ b: [Double], columns n: Int) throws -> [Double] {
        let rows = b.count
        precondition(a.count == rows * n, "the matrix must have one row per right-hand entry")
        guard rows >= n else { throw GeometryError.notEnoughPoints(needed: n, got: rows) }
        var normal = [Double](repeating: 0, count: n * n)
        var rhs = [Double](repeating: 0, count: n)
        for r in 0..<rows {
            let base = r * n
            for i in 0..<n {
                let ai = a[base + i]
                if ai == 0 { continue }
                rhs[i] += ai * b[r]
                for j in i..<n { normal[i * n + j] += ai * a[base + j] }
            }
        }
        for i in 0..<n { for j in 0..<i { normal[i * n + j] = normal[j * n + i] } }
        return try solve(normal, rhs)
    }

    /// `a` (rows x inner) times `b` (inner x columns), row-major; zero entries of `a` are
    /// skipped.
    public static func multiply(_ a: [Double], rows: Int, inner: Int, _ b: [Double], columns: Int) -> [Double] {
        var out = [Double](repeating: 0, count: rows * columns)
        for r in 0..<rows {
            for q in 0..<inner {
                let v = a[r * inner + q]
                if v == 0 { continue }
                for c in 0..<columns { out[r * columns + c] += v * b[q * columns + c] }
            }
        }
        return out
    }
}
