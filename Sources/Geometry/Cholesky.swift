/// Dense symmetric positive definite systems by Cholesky's factorisation, on row-major n x n
/// arrays: the kernel of the package's least-squares solvers (the joint bundle adjustment's
/// reduced system, its 6x6 pose blocks). Each function keeps its order of arithmetic: results
/// are the same to the bit from one release to the next.
public enum Cholesky {
    /// In-place lower Cholesky factor `L` of `a` (`a = L Lᵀ`); only the lower triangle is
    /// read and written. False when `a` is not positive definite.
    ///
    /// Larger matrices are factored four columns at a time (`factorInPanels`), with the same
    /// arithmetic in the same order as one column at a time (`factorByColumns`): the same bits.
    public static func factor(_ a: inout [Double], _ n: Int) -> Bool {
        n < 16 ? factorByColumns(&a, n) : factorInPanels(&a, n)
    }

    /// The factor one column at a time, each entry a dot product of two rows' finished parts.
    static func factorByColumns(_ a: inout [Double], _ n: Int) -> Bool {
        a.withUnsafeMutableBufferPointer { m in
            guard let base = m.baseAddress else { return n == 0 }
            for j in 0..<n {
                let rowJ = base + j * n
                let d = rowJ[j] - dot(rowJ, rowJ, j)
                guard d > 0 else { return false }
                let root = d.squareRoot()
                rowJ[j] = root
                for i in (j + 1)..<max(n, j + 1) {
                    let rowI = base + i * n
                    rowI[j] = (rowI[j] - dot(rowI, rowJ, j)) / root
                }
            }
            return true
        }
    }

    /// The factor four columns at a time. The dot products of the four columns `j0 ..< j0 + 4`
    /// (`j0` a multiple of four) share their four-wide part, the first `j0` entries: it is
    /// summed for all four in one pass over each row, which then is read once where one
    /// column at a time read it four times (most of the time went to reading rows a reduced
    /// bundle-adjustment system of 700 unknowns holds). Each entry's short remainder is then
    /// added one by one, as `dot` does.
    static func factorInPanels(_ a: inout [Double], _ n: Int) -> Bool {
        guard n > 0 else { return true }
        var shared = [SIMD4<Double>](repeating: .zero, count: n * 4)
        return a.withUnsafeMutableBufferPointer { m in
            shared.withUnsafeMutableBufferPointer { sums in
                guard let base = m.baseAddress, let sums = sums.baseAddress else { return false }
                var j0 = 0
                while j0 < n {
                    let width = min(4, n - j0)
                    // A panel narrower than four repeats its last row: those sums go unused.
                    let p0 = base + j0 * n, p1 = base + (j0 + min(1, width - 1)) * n
                    let p2 = base + (j0 + min(2, width - 1)) * n, p3 = base + (j0 + min(3, width - 1)) * n
                    for i in j0..<n {
                        let rowI = base + i * n
                        var s0 = SIMD4<Double>.zero, s1 = SIMD4<Double>.zero, s2 = SIMD4<Double>.zero, s3 = SIMD4<Double>.zero
                        var q = 0
                        while q < j0 {
                            let x = SIMD4(rowI[q], rowI[q + 1], rowI[q + 2], rowI[q + 3])
                            s0 += x * SIMD4(p0[q], p0[q + 1], p0[q + 2], p0[q + 3])
                            s1 += x * SIMD4(p1[q], p1[q + 1], p1[q + 2], p1[q + 3])
                            s2 += x * SIMD4(p2[q], p2[q + 1], p2[q + 2], p2[q + 3])
                            s3 += x * SIMD4(p3[q], p3[q + 1], p3[q + 2], p3[q + 3])
                            q += 4
                        }
                        sums[i * 4] = s0
                        sums[i * 4 + 1] = s1
                        sums[i * 4 + 2] = s2
                        sums[i * 4 + 3] = s3
                    }
                    for c in 0..<width {
                        let j = j0 + c
                        let rowJ = base + j * n
                        var total = sums[j * 4 + c].sum()
                        for q in j0..<j { total += rowJ[q] * rowJ[q] }
                        let d = rowJ[j] - total
                        guard d > 0 else { return false }
                        let root = d.squareRoot()
                        rowJ[j] = root
                        for i in (j + 1)..<max(n, j + 1) {
                            let rowI = base + i * n
                            var t = sums[i * 4 + c].sum()
                            for q in j0..<j { t += rowI[q] * rowJ[q] }
                            rowI[j] = (rowI[j] - t) / root
                        }
                    }
                    j0 += 4
                }
                return true
            }
        }
    }

    /// Solves `a x = b` for symmetric positive definite `a` (overwritten by its factor); nil
    /// when `a` is not positive definite.
    public static func solve(_ a: inout [Double], _ b: [Double], _ n: Int) -> [Double]? {
        guard factor(&a, n) else { return nil }
        return substitute(a, b, n)
    }

    /// `(L Lᵀ)⁻¹ b`: forward and back substitution with a lower factor `l`.
    public static func substitute(_ l: [Double], _ b: [Double], _ n: Int) -> [Double] {
        var y = forwardSubstitute(l, b, n)
        for i in stride(from: n - 1, through: 0, by: -1) {
            var v = y[i]
            for q in (i + 1)..<max(n, i + 1) { v -= l[q * n + i] * y[q] }
            y[i] = v / l[i * n + i]
        }
        return y
    }

    /// `L⁻¹ v`: forward substitution alone with a lower factor `l`.
    public static func forwardSubstitute(_ l: [Double], _ v: [Double], _ n: Int) -> [Double] {
        var y = v
        for i in 0..<n {
            var t = y[i]
            for q in 0..<i { t -= l[i * n + q] * y[q] }
            y[i] = t / l[i * n + i]
        }
        return y
    }

    /// The inverse of a symmetric positive definite `h`, column by column through its factor;
    /// nil when `h` is not positive definite.
    public static func inverse(_ h: [Double], _ n: Int) -> [Double]? {
        var inverse = [Double](repeating: 0, count: n * n)
        var l = h
        guard factor(&l, n) else { return nil }
        for c in 0..<n {
            var e = [Double](repeating: 0, count: n)
            e[c] = 1
            let x = substitute(l, e, n)
            for r in 0..<n { inverse[r * n + c] = x[r] }
        }
        return inverse
    }

    /// The dot product of the first `count` entries, in four independent sums: the
    /// factorisation's inner loop, which one running sum would leave waiting on each addition.
    @inline(__always)
    private static func dot(_ a: UnsafePointer<Double>, _ b: UnsafePointer<Double>, _ count: Int) -> Double {
        var sums = SIMD4<Double>.zero
        var q = 0
        while q + 4 <= count {
            sums += SIMD4(a[q], a[q + 1], a[q + 2], a[q + 3]) * SIMD4(b[q], b[q + 1], b[q + 2], b[q + 3])
            q += 4
        }
        var total = sums.sum()
        while q < count {
            total += a[q] * b[q]
            q += 1
        }
        return total
    }
}
