/// A 3x3 matrix of doubles, row-major; used for homographies, rotations and intrinsics.
public struct Matrix3: Sendable, Hashable {
    // Three rows instead of an array: no heap allocation, so matrices are cheap enough to
    // build per marker candidate.
    private var row0: SIMD3<Double>
    private var row1: SIMD3<Double>
    private var row2: SIMD3<Double>

    /// A matrix from its entries in row-major order; `entries.count` must be 9.
    public init(rowMajor entries: [Double]) {
        precondition(entries.count == 9, "a 3x3 matrix has nine entries")
        row0 = SIMD3(entries[0], entries[1], entries[2])
        row1 = SIMD3(entries[3], entries[4], entries[5])
        row2 = SIMD3(entries[6], entries[7], entries[8])
    }

    /// A matrix from its three rows.
    public init(rows r0: SIMD3<Double>, _ r1: SIMD3<Double>, _ r2: SIMD3<Double>) {
        row0 = r0
        row1 = r1
        row2 = r2
    }

    /// The nine entries, row after row.
    public var entries: [Double] {
        [row0.x, row0.y, row0.z, row1.x, row1.y, row1.z, row2.x, row2.y, row2.z]
    }

    /// Row `index` (0...2).
    public func row(_ index: Int) -> SIMD3<Double> {
        switch index {
        case 0: row0
        case 1: row1
        default: row2
        }
    }

    /// The identity matrix.
    public static let identity = Matrix3(rowMajor: [1, 0, 0, 0, 1, 0, 0, 0, 1])

    /// The entry at `row`, `column` (both 0...2).
    public subscript(row: Int, column: Int) -> Double {
        get {
            switch row {
            case 0: row0[column]
            case 1: row1[column]
            default: row2[column]
            }
        }
        set {
            switch row {
            case 0: row0[column] = newValue
            case 1: row1[column] = newValue
            default: row2[column] = newValue
            }
        }
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
        SIMD3((lhs.row0 * rhs).sum(), (lhs.row1 * rhs).sum(), (lhs.row2 * rhs).sum())
    }

    /// The transpose.
    public var transposed: Matrix3 {
        Matrix3(rowMajor: [
            self[0, 0], self[1, 0], self[2, 0],
            self[0, 1], self[1, 1], self[2, 1],
            self[0, 2], self[1, 2], self[2, 2],
        ])
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
        let largest = pointwiseMax(pointwiseMax(row0.magnitudes, row1.magnitudes), row2.magnitudes)
        let scale = largest.max()
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

extension SIMD3 where Scalar == Double {
    /// Absolute values of the components.
    fileprivate var magnitudes: SIMD3<Double> { SIMD3(abs(x), abs(y), abs(z)) }
}
