/// Eigen-decomposition of small symmetric matrices by cyclic Jacobi rotations.
///
/// Jacobi is slower than tridiagonal QR for large n but is simple, unconditionally stable and
/// accurate to working precision, which is what 3x3 covariances and Horn's 4x4 matrix need.
public enum SymmetricEigen {
    /// Eigenvalues in ascending order and the matching unit eigenvectors (`vectors[k]` belongs
    /// to `values[k]`) of the symmetric n x n matrix `a` (row-major; only symmetry is assumed).
    public static func decompose(_ a: [Double], size n: Int) -> (values: [Double], vectors: [[Double]]) {
        precondition(a.count == n * n, "the matrix must be n x n")
        var m = a
        var v = [Double](repeating: 0, count: n * n)
        for i in 0..<n { v[i * n + i] = 1 }
        for _ in 0..<64 {
            var off = 0.0
            for i in 0..<n { for j in (i + 1)..<max(n, i + 1) { off += m[i * n + j] * m[i * n + j] } }
            if off < 1e-30 { break }
            for p in 0..<n {
                for q in (p + 1)..<max(n, p + 1) {
                    let apq = m[p * n + q]
                    if abs(apq) < 1e-300 { continue }
                    let theta = (m[q * n + q] - m[p * n + p]) / (2 * apq)
                    let t = (theta >= 0 ? 1.0 : -1.0) / (abs(theta) + (theta * theta + 1).squareRoot())
                    let c = 1 / (t * t + 1).squareRoot(), s = t * c
                    for k in 0..<n {
                        let mkp = m[k * n + p], mkq = m[k * n + q]
                        m[k * n + p] = c * mkp - s * mkq
                        m[k * n + q] = s * mkp + c * mkq
                    }
                    for k in 0..<n {
                        let mpk = m[p * n + k], mqk = m[q * n + k]
                        m[p * n + k] = c * mpk - s * mqk
                        m[q * n + k] = s * mpk + c * mqk
                    }
                    for k in 0..<n {
                        let vkp = v[k * n + p], vkq = v[k * n + q]
                        v[k * n + p] = c * vkp - s * vkq
                        v[k * n + q] = s * vkp + c * vkq
                    }
                }
            }
        }
        let order = (0..<n).sorted { m[$0 * n + $0] < m[$1 * n + $1] }
        return (order.map { m[$0 * n + $0] }, order.map { k in (0..<n).map { v[$0 * n + k] } })
    }
}
