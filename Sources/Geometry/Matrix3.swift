/// A 3x3 matrix of doubles, row-major; used for homographies, rotations and intrinsics.
public struct Matrix3: Sendable, Hashable {
    /// The nine entries, row after row.
    public var entries: [Double]

    /// A matrix from its entries in row-major order; `entries.count` must be 9.
    public init(rowMajor entries: [Double]) {
        precondition(entries.count == 9, "a 3x3 matrix has nine entries")
        self.entries = entries
    }

    /// The identity matrix.
    public static let identity = Matrix3(rowMajor: [1, 0, 0, 0, 1, 0, 0, 0, 1])

    /// The entry at `row`, `column` (both 0...2).
    @inlinable
    public subscript(row: Int, column: Int) -> Double {
        get { entries[row * 3 + column] }
        set { entries[row * 3 + column] = newValue }
    }

    /// Matrix product.
    public static func * (lhs: Matrix3, rhs: Matrix3) -> Matrix3 {
        var out = [Double](repeating: 0, count: 9)
        for r in 0..<3 {
            for c in 0..<3 {
                out[r * 3 + c] = lhs[r, 0] * rhs[0, c] + lhs[r, 1] * rhs[1, c] + lhs[r, 2] * rhs[2, c]
            }
        }
        return Matrix3(rowMajor: out)
    }

    /// Matrix times a column vector.
    public static func * (lhs: Matrix3, rhs: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(
            lhs[0, 0] * rhs.x + lhs[0, 1] * rhs.y + lhs[0, 2] * rhs.z,
            lhs[1, 0] * rhs.x + lhs[1, 1] * rhs.y + lhs[1, 2] * rhs.z,
            lhs[2, 0] * rhs.x + lhs[2, 1] * rhs.y + lhs[2, 2] * rhs.z)
    }

    /// The transpose.
    public var transposed: Matrix3 {
        Matrix3(rowMajor: [self[0, 0], self[1, 0], self[2, 0],
                           self[0, 1], self[1, 1], self[2, 1],
                           self[0, 2], self[1, 2], self[2, 2]])
    }

    /// The determinant.
    public var determinant: Double {
        self[0, 0] * (self[1, 1] * self[2, 2] - self[1, 2] * self[2, 1])
            - self[0, 1] * (self[1, 0] * self[2, 2] - self[1, 2] * self[2, 0])
            + self[0, 2] * (self[1, 0] * self[2, 1] - self[1, 1] * self[2, 0])
    }

    /// The inverse, or nil when the matrix is singular to working precision.
    public var inverse: Matrix3? {
        let det = determinant
        let scale = entries.reduce(0) { max($0, abs($1)) }
        guard scale > 0, abs(det) > 1e-14 * scale * scale * scale else { return nil }
        let a = self
        let cofactors: [Double] = [
            a[1, 1] * a[2, 2] - a[1, 2] * a[2, 1], a[0, 2] * a[2, 1] - a[0, 1] * a[2, 2], a[0, 1] * a[1, 2] - a[0, 2] * a[1, 1],
            a[1, 2] * a[2, 0] - a[1, 0] * a[2, 2], a[0, 0] * a[2, 2] - a[0, 2] * a[2, 0], a[0, 2] * a[1, 0] - a[0, 0] * a[1, 2],
            a[1, 0] * a[2, 1] - a[1, 1] * a[2, 0], a[0, 1] * a[2, 0] - a[0, 0] * a[2, 1], a[0, 0] * a[1, 1] - a[0, 1] * a[1, 0],
        ]
        return Matrix3(rowMajor: cofactors.map { $0 / det })
    }
}
