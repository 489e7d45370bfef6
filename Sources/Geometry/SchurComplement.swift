/// Elimination of small unknown blocks from a dense symmetric system (the Schur complement):
/// how a bundle adjustment takes each pose's six unknowns off its normal equations, leaving a
/// reduced system over what the poses share. Row-major arrays; each function keeps its order
/// of arithmetic, so results are the same to the bit from one release to the next.
public enum SchurComplement {
    /// Takes a block of six unknowns off the reduced system `s x = b` (n x n): with the block's
    /// own (damped) matrix `H = L Lᵀ` (`factor` holds `L`), its right-hand side `gradient` and
    /// its couplings `B` to the kept unknowns (6-row blocks side by side, whose columns are
    /// the reduced system's `columns`, in order), `s[C, C] -= Bᵀ H⁻¹ B` and
    /// `b[C] -= Bᵀ H⁻¹ g`, through `W = L⁻¹ B`. Only the pairs of `columns` are touched, and
    /// only in the lower half of `s` (the half `Cholesky.factor` reads) when no column is named
    /// twice; otherwise in both halves.
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

    /// The columns of `L⁻¹ [B₁ B₂ …]` for 6-row blocks `B`, each column's six numbers in a row
    /// (forward substitution, as `Cholesky.forwardSubstitute` does it, in place).
    static func whitenedColumns(_ blocks: [(block: [Double], width: Int)], factor l: [Double]) -> [Double] {
        let total = blocks.reduce(0) { $0 + $1.width }
        var out = [Double](repeating: 0, count: total * 6)
        var column = 0
        for (block, width) in blocks {
            for c in 0..<width {
                let row = column * 6
                for i in 0..<6 {
                    var t = block[i * width + c]
                    for q in 0..<i { t -= l[i * 6 + q] * out[row + q] }
                    out[row + i] = t / l[i * 6 + i]
                }
                column += 1
            }
        }
        return out
    }

    /// `s[columns, columns] -= Wᵀ W` for the rows of six numbers in `w`, in the lower half of
    /// `s` alone: row by row of `s`, each entry written once (the rows of `W` in the order of
    /// their columns), where writing both halves walked `s` down its columns as well. With a
    /// column named twice, both halves as `subtractGramInBothHalves` does (an entry then takes
    /// two subtractions, whose order matters to the last bit).
    static func subtractGram(_ w: [Double], columns: [Int], from s: inout [Double], n: Int) {
        let order = columns.indices.sorted { columns[$0] < columns[$1] }
        let sorted = order.map { columns[$0] }
        guard zip(sorted, sorted.dropFirst()).allSatisfy({ $0 < $1 }) else {
            subtractGramInBothHalves(w, columns: columns, from: &s, n: n)
            return
        }
        // Four rows of W at a time against one: each lane adds the pair's products in the order
        // `SIMD8.sum()` does, one after another (products 6 and 7 are zero: adding them turns
        // only a -0 into +0), so every entry gets the same bits as when the pair was summed on
        // its own, without adding across lanes.
        let m = order.count, padded = (m + 3) / 4 * 4
        var across = [Double](repeating: 0, count: 6 * padded)  // across[q * padded + k]: W's row k, entry q
        for (k, i) in order.enumerated() {
            for q in 0..<6 { across[q * padded + k] = w[i * 6 + q] }
        }
        across.withUnsafeBufferPointer { a in
            sorted.withUnsafeBufferPointer { sorted in
                s.withUnsafeMutableBufferPointer { s in
                    guard let a = a.baseAddress else { return }
                    func four(_ q: Int, _ k: Int) -> SIMD4<Double> {
                        UnsafeRawPointer(a + q * padded + k).loadUnaligned(as: SIMD4<Double>.self)
                    }
                    for j in 0..<m {
                        let row = sorted[j] * n
                        let c0 = SIMD4(repeating: a[j]), c1 = SIMD4(repeating: a[padded + j]), c2 = SIMD4(repeating: a[2 * padded + j])
                        let c3 = SIMD4(repeating: a[3 * padded + j]), c4 = SIMD4(repeating: a[4 * padded + j])
                        let c5 = SIMD4(repeating: a[5 * padded + j])
                        var k = 0
                        while k <= j {
                            var t = four(0, k) * c0 + four(1, k) * c1
                            t = ((t + four(2, k) * c2) + four(3, k) * c3) + four(4, k) * c4
                            t = (t + four(5, k) * c5) + SIMD4<Double>.zero
                            if k + 3 <= j {
                                s[row &+ sorted[k]] -= t[0]
                                s[row &+ sorted[k &+ 1]] -= t[1]
                                s[row &+ sorted[k &+ 2]] -= t[2]
                                s[row &+ sorted[k &+ 3]] -= t[3]
                            } else {
                                for lane in 0...(j - k) { s[row &+ sorted[k &+ lane]] -= t[lane] }
                            }
                            k &+= 4
                        }
                    }
                }
            }
        }
    }

    /// `s[columns, columns] -= Wᵀ W` in both halves; each pair is computed once and written
    /// to both.
    static func subtractGramInBothHalves(_ w: [Double], columns: [Int], from s: inout [Double], n: Int) {
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
