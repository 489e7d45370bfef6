import Foundation
import Geometry

/// A mesh seen along one axis from far away: per square cell of a grid across the view, the
/// height of the outermost surface (the largest coordinate along the axis), or nil where the
/// mesh has none. The landmark search reads faces and ears from these.
struct HeightMap {
    /// The grid's first cell centre, in the view's across coordinates (metres).
    let origin: SIMD2<Double>
    /// Cell edge, metres.
    let cell: Double
    let columns: Int
    let rows: Int
    /// Heights row by row, NaN where empty.
    private(set) var heights: [Double]

    /// Rasterises `mesh` (already in a frame where `across` gives the grid coordinates and
    /// `along` the height) over `columns`×`rows` cells from `origin`.
    init(
        _ mesh: TriangleMesh, origin: SIMD2<Double>, cell: Double, columns: Int, rows: Int,
        across: (SIMD3<Double>) -> SIMD2<Double>, along: (SIMD3<Double>) -> Double
    ) {
        self.origin = origin
        self.cell = cell
        self.columns = columns
        self.rows = rows
        var heights = [Double](repeating: -.infinity, count: columns * rows)
        let flat = mesh.vertices.map { (across($0), along($0)) }
        for face in mesh.faces {
            let (a, ha) = flat[Int(face.x)], (b, hb) = flat[Int(face.y)], (c, hc) = flat[Int(face.z)]
            let low = pointwiseMin(a, pointwiseMin(b, c)), high = pointwiseMax(a, pointwiseMax(b, c))
            let i0 = max(0, Int(((low.x - origin.x) / cell).rounded(.up))), i1 = min(columns - 1, Int(((high.x - origin.x) / cell).rounded(.down)))
            let j0 = max(0, Int(((low.y - origin.y) / cell).rounded(.up))), j1 = min(rows - 1, Int(((high.y - origin.y) / cell).rounded(.down)))
            guard i0 <= i1, j0 <= j1 else { continue }
            let area = (b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y)
            guard abs(area) > 1e-14 else { continue }
            for j in j0...j1 {
                for i in i0...i1 {
                    let p = origin + SIMD2(Double(i), Double(j)) * cell
                    let wa = ((b.x - p.x) * (c.y - p.y) - (c.x - p.x) * (b.y - p.y)) / area
                    let wb = ((c.x - p.x) * (a.y - p.y) - (a.x - p.x) * (c.y - p.y)) / area
                    let wc = 1 - wa - wb
                    guard wa >= -1e-9, wb >= -1e-9, wc >= -1e-9 else { continue }
                    let h = wa * ha + wb * hb + wc * hc
                    let k = j * columns + i
                    if h > heights[k] { heights[k] = h }
                }
            }
        }
        self.heights = heights.map { $0.isFinite ? $0 : .nan }
    }

    /// A head is never this deep within one view's window (metres): where a cell lies further
    /// below the window's median, the view looks through a hole in the mesh (an eye socket or
    /// a mouth the scan did not close) at the far side of the head.
    static let seeThroughDepth = 0.04

    /// Empties the cells that look through a hole at the far side of the head. Left in, a
    /// skin fitted to the window bends toward them, and the whole face stands out of it.
    mutating func dropSeeThrough() {
        let filled = heights.filter { !$0.isNaN }.sorted()
        guard !filled.isEmpty else { return }
        let floor = filled[filled.count / 2] - Self.seeThroughDepth
        heights = heights.map { $0 < floor ? .nan : $0 }
    }

    /// Fills small holes (a reconstruction leaves some on thin parts, like a nose's tip): each
    /// round, an empty cell with at least three filled neighbours of eight takes their mean.
    /// `rounds` limits how far in from an edge a hole is filled (a cell per round), so large
    /// unseen parts stay empty.
    mutating func fillHoles(rounds: Int) {
        for _ in 0..<rounds {
            var next = heights
            var changed = false
            for j in 0..<rows {
                for i in 0..<columns where heights[j * columns + i].isNaN {
                    var sum = 0.0, count = 0
                    for dj in -1...1 {
                        for di in -1...1 where di != 0 || dj != 0 {
                            if let h = self[i + di, j + dj] { sum += h; count += 1 }
                        }
                    }
                    if count >= 3 { next[j * columns + i] = sum / Double(count); changed = true }
                }
            }
            heights = next
            if !changed { return }
        }
    }

    /// The height at a cell, nil where empty or outside.
    subscript(i: Int, j: Int) -> Double? {
        guard i >= 0, j >= 0, i < columns, j < rows else { return nil }
        let h = heights[j * columns + i]
        return h.isNaN ? nil : h
    }

    /// How far a cell stands out of `skin`, nil where empty or outside.
    func rise(_ i: Int, _ j: Int, above skin: SkinSurface) -> Double? {
        self[i, j].map { $0 - skin.height(at: position(i, j)) }
    }

    /// The across coordinates of a cell's centre.
    func position(_ i: Int, _ j: Int) -> SIMD2<Double> { origin + SIMD2(Double(i), Double(j)) * cell }
}

/// Where the vertex of the parabola through three equally spaced samples lies, in steps from
/// the middle one (within half a step); 0 when a sample is missing or they do not bend the
/// way `peak` asks (down for a peak, up for a hollow).
func parabolaVertexOffset(_ minus: Double?, _ centre: Double, _ plus: Double?, peak: Bool) -> Double {
    guard let minus, let plus else { return 0 }
    let curvature = minus - 2 * centre + plus
    guard peak ? curvature < 0 : curvature > 0 else { return 0 }
    return max(-0.5, min(0.5, (minus - plus) / (2 * curvature)))
}

/// A smooth quadratic or cubic surface h = f(u, v) fitted to a height map's cells, robust to bumps that
/// stand out of it (an ear, a nose): cells more than `bumpTolerance` above the fit are left
/// out and the fit repeated, so the surface settles on the skin around them.
struct SkinSurface {
    /// Coefficients of 1, u, v, u², uv, v² (and u³, u²v, uv², v³ for a cubic), with u, v
    /// relative to `centre` in centimetres (to keep the normal equations well scaled).
    let coefficients: [Double]
    let centre: SIMD2<Double>
    let cubic: Bool

    static let bumpTolerance = 0.0008

    init?(_ map: HeightMap, cubic: Bool = false, include: (Int, Int) -> Bool = { _, _ in true }, rounds: Int = 12) {
        self.cubic = cubic
        let n = cubic ? 10 : 6
        var cells: [(SIMD2<Double>, Double)] = []
        for j in 0..<map.rows {
            for i in 0..<map.columns where include(i, j) {
                if let h = map[i, j] { cells.append((map.position(i, j), h)) }
            }
        }
        guard cells.count >= 30 else { return nil }
        centre = cells.reduce(SIMD2<Double>.zero) { $0 + $1.0 } / Double(cells.count)
        var use = [Bool](repeating: true, count: cells.count)
        var fit: [Double] = []
        for _ in 0..<rounds {
            var a: [Double] = [], b: [Double] = []
            for (k, (p, h)) in cells.enumerated() where use[k] {
                a += Self.terms(p - centre, cubic: cubic)
                b.append(h)
            }
            guard b.count >= 2 * n, let solved = try? LinearSolver.leastSquares(a, b, columns: n) else { break }
            fit = solved
            // Cells above are the bump. Cells far below are something else (a neck, a hand)
            // where the map leaves the head; "far" is three robust deviations of the skin's
            // own scatter, at least 2 mm, so a first fit pulled up by a big bump still lets the
            // skin beside it pull it down.
            let (c, f, isCubic) = (centre, fit, cubic)
            let residuals = cells.map { $0.1 - Self.evaluate(f, $0.0 - c, cubic: isCubic) }
            let skin = residuals.filter { $0 < Self.bumpTolerance }
            let low = -max(0.002, 3 * Statistics.robustSigmaUpper(skin))
            for k in cells.indices { use[k] = residuals[k] < Self.bumpTolerance && residuals[k] > low }
        }
        guard fit.count == n else { return nil }
        coefficients = fit
    }

    /// The skin's height at `p`.
    func height(at p: SIMD2<Double>) -> Double { Self.evaluate(coefficients, p - centre, cubic: cubic) }

    private func terms(_ d: SIMD2<Double>) -> [Double] { Self.terms(d, cubic: cubic) }

    private static func terms(_ m: SIMD2<Double>, cubic: Bool) -> [Double] {
        let d = m * 100
        let quadratic = [1, d.x, d.y, d.x * d.x, d.x * d.y, d.y * d.y]
        return cubic ? quadratic + [d.x * d.x * d.x, d.x * d.x * d.y, d.x * d.y * d.y, d.y * d.y * d.y] : quadratic
    }

    private static func evaluate(_ c: [Double], _ d: SIMD2<Double>, cubic: Bool) -> Double {
        zip(c, terms(d, cubic: cubic)).reduce(0) { $0 + $1.0 * $1.1 }
    }
}
