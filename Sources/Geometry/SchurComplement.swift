/// Elimination of small unknown blocks from a dense symmetric system (the Schur complement):
/// how a bundle adjustment takes each pose's six unknowns off its normal equations, leaving a
/// reduced system over what the poses share. Row-major arrays; each function keeps its order
/// of arithmetic, so results are the same to the bit from one release to the next.
public enum SchurComplement {
    /// Takes a block of six unknowns off the reduced system `s x = b` (n x n): with the block's
    /// own (damped) matrix `H = L Lᵀ` (`factor` holds `L`), its right-hand side `gradient` and
    /// its couplings `B` to the kept unknowns (6-row blocks side by side, whose columns are
    /// the reduced system's `columns`, in order), `s[C, C] -= Bᵀ H⁻¹ B` and
    /// `b[C] -= Bᵀ H⁻¹ g`, through `W = L⁻¹ B`. Only the pairs of `columns` are touched, each
    /// pair computed once and written to both halves.
    public static func eliminateSix(
        factor l: [Double], gradient: [Double], couplings: [(block: [Double], width: Int)], columns: [Int],
        from s: inout [Double], _ b: inout [Double], n: Int
    ) {
        let w = whitenedColumns(couplings, factor: l)
        let g = Cholesky.forwardSubstitute(l, gradient, 6)
        subtractGram(w, columns: columns, from: &s, n: n)
        for (k, column) in columns.enumerated() {
            var t = 0.0
            for q in 0..<6 { t += w[k * 6 + q] * g[q] }
            b[column] -= t
        }
    }

    /// The columns of `L⁻¹ [B₁ B₂ …]` for 6-row blocks `B`, each column's six numbers in a row.
    static func whitenedColumns(_ blocks: [(block: [Double], width: Int)], factor l: [Double]) -> [Double] {
        var out: [Double] = []
        out.reserveCapacity(blocks.reduce(0) { $0 + $1.width } * 6)
        for (block, width) in blocks {
            for c in 0..<width {
                out += Cholesky.forwardSubstitute(l, (0..<6).map { block[$0 * width + c] }, 6)
            }
        }
        return out
    }

    /// `s[columns, columns] -= Wᵀ W` for the rows of six numbers in `w`; each pair is computed
    /// once and written to both halves.
    static func subtractGram(_ w: [Double], columns: [Int], from s: inout [Double], n: Int) {
        w.withUnsafeBufferPointer { w in
            s.withUnsafeMutableBufferPointer { s in
                for i in columns.indices {
                    let wi = SIMD8(w[i * 6], w[i * 6 + 1], w[i * 6 + 2], w[i * 6 + 3], w[i * 6 + 4], w[i * 6 + 5], 0, 0)
                    let rowI = columns[i] * n
                    for j in i..<columns.count {
                        let wj = SIMD8(w[j * 6], w[j * 6 + 1], w[j * 6 + 2], w[j * 6 + 3], w[j * 6 + 4], w[j * 6 + 5], 0, 0)
                        let t = (wi * wj).sum()
                        s[rowI + columns[j]] -= t
                        if j != i { s[columns[j] * n + columns[i]] -= t }
                    }
                }
            }
        }
    }
}
