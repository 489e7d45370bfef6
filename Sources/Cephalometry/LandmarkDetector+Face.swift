import Foundation
import Geometry

extension LandmarkDetector {
    /// The nose stands this far out of the face's skin surface, at least (metres).
    static let noseThreshold = 0.003
    /// Least a hollow below a receding forehead lies behind the ground on either side of it
    /// (metres).
    static let minimumHollow = 0.0005
    /// The band around the nasion's hollow whose mirror centre places it across: this far up
    /// and down, and this far to each side (metres): past the inner corners of an infant's
    /// eyes, so that the band's curve, not only its slope, tells the middle.
    static let nasionBand = 0.002
    static let nasionHalfWidth = 0.018

    /// Nose tip and nasion in a mesh already in the head frame, looked at from the front.
    static func face(
        _ mesh: TriangleMesh, x: ClosedRange<Double>, z: ClosedRange<Double>
    ) throws(CephalometryError)
        -> (tip: DetectedLandmark, nasion: DetectedLandmark)
    {
        let (x0, columns) = grid(x), (z0, rows) = grid(z)
        var map = HeightMap(
            mesh, origin: SIMD2(x0, z0), cell: cell, columns: columns, rows: rows,
            across: { SIMD2($0.x, $0.z) }, along: { $0.y })
        map.fillHoles(rounds: holeRounds)
        map.dropSeeThrough()
        guard let skin = SkinSurface(map, cubic: true) else {
            throw .unusableMesh("the face is missing from the mesh; scan the face too, or pick the landmarks")
        }
        let rise = { (c: CellMask.Cell) in map.rise(c.i, c.j, above: skin) ?? -.infinity }
        let raised = CellMask(map) { i, j, _ in rise(CellMask.Cell(i: i, j: j)) > noseThreshold }
        // The nose is the part that stands out most, near the middle; where the fit leaves the
        // face at the window's edge (toward the chin) a raised part touches the edge and is not
        // the nose.
        let middle = (x.lowerBound + x.upperBound) / 2
        guard
            let nose = raised.mostProminent(
                minimumCells: 20,
                by: { c in
                    rise(c) / (1 + abs(map.position(c.i, c.j).x - middle) / 0.015)
                })
        else {
            throw .unusableMesh("no nose stands out of the face; check that the face was scanned, or pick the landmarks")
        }
        // The nose's midline: along its ridge from root to tip, the cell of each row standing
        // out most. A reconstruction wears a thin nose down more on one side than the other,
        // and a lopsided face tilts it, which moves its single highest cell sideways; the
        // ridge's middle stays put.
        let highest = nose.max { rise($0) < rise($1) }!
        let span = Int((0.012 / cell).rounded()), near = Int((0.004 / cell).rounded())
        var ridge: [Double] = []
        for j in Set(nose.map(\.j)) where j >= highest.j && j <= highest.j + span {
            let row = nose.filter { $0.j == j && abs($0.i - highest.i) <= near + near / 2 }
            guard let peak = row.max(by: { rise($0) < rise($1) }) else { continue }
            // A parabola through the row's peak and its neighbours places the ridge between cells.
            let shift = parabolaVertexOffset(
                map.rise(peak.i - 1, j, above: skin), rise(peak), map.rise(peak.i + 1, j, above: skin), peak: true)
            ridge.append(Double(peak.i) + shift)
        }
        let axisColumn = ridge.sorted()[ridge.count / 2]
        let axis = Int(axisColumn.rounded())
        // The tip: the ridge line's most anterior point, as anatomists define the pronasale.
        // Where it stands out furthest from the fitted face is not the same on a fused nose:
        // fusion rounds the edge of the tip, and that point slides down the flat underside.
        func forward(_ j: Int) -> Double { map[axis, j] ?? -.infinity }
        var top = CellMask.Cell(i: axis, j: highest.j)
        for j in max(0, highest.j - near)...min(map.rows - 1, highest.j + near) where forward(j) > forward(top.j) {
            top = CellMask.Cell(i: axis, j: j)
        }
        guard let tipHeight = map[top.i, top.j] else {
            throw .unusableMesh("the nose's tip is missing from the mesh; scan the face from the front, or pick the nose tip")
        }
        let along =
            map.position(axis, top.j).y
            + parabolaVertexOffset(map[axis, top.j - 1], tipHeight, map[axis, top.j + 1], peak: true) * cell
        let tipAcross = SIMD2(map.origin.x + axisColumn * cell, along)
        let protrusion = tipHeight - skin.height(at: tipAcross)
        let tip = DetectedLandmark(
            point: SIMD3(tipAcross.x, tipHeight, tipAcross.y), normal: SIMD3(0, 1, 0),
            confidence: min(1, protrusion / 0.006),
            evidence: String(format: "nose stands %.1f mm out of the face", protrusion * 1000))
        return (tip, try nasion(map, tipColumn: axis, tipRow: top.j))
    }

    /// The deepest point of the midline profile above the nose tip.
    private static func nasion(_ map: HeightMap, tipColumn: Int, tipRow: Int) throws(CephalometryError) -> DetectedLandmark {
        let halfBand = Int((0.001 / cell).rounded())
        var profile: [(row: Int, height: Double)] = []
        for j in min(map.rows, tipRow + Int((0.004 / cell).rounded()))..<map.rows {
            let values = (-halfBand...halfBand).compactMap { map[tipColumn + $0, j] }
            if values.count > halfBand { profile.append((j, values.reduce(0, +) / Double(values.count))) }
        }
        profile = withoutCracks(profile)
        guard profile.count >= 8, let deepest = deepestHollow(profile), deepest > 0, deepest < profile.count - 1 else {
            throw .unusableMesh("no hollow between nose and forehead; check that the face was scanned, or pick the nasion")
        }
        let below = profile[..<deepest].map(\.height).max()! - profile[deepest].height
        let above = profile[(deepest + 1)...].map(\.height).max()! - profile[deepest].height
        // A parabola through the deepest row and its neighbours places the hollow between rows.
        let (a, b, c) = (profile[deepest - 1].height, profile[deepest].height, profile[deepest + 1].height)
        let curvature = a - 2 * b + c
        let shift = parabolaVertexOffset(a, b, c, peak: false)
        let row = Double(profile[deepest].row) + shift
        let depth = min(below, above)
        // Across, the nasion lies on the face's midline at its height: the mirror centre of the
        // band around the hollow, looked for within 3 mm of the nose's ridge but not taken from
        // it (the ridge lies on 0.5 mm cells, and fusion wears a thin nose's flanks unevenly).
        let band = Int((nasionBand / cell).rounded())
        let nearRows = max(0, profile[deepest].row - band)...min(map.rows - 1, profile[deepest].row + band)
        let column =
            map.mirrorCentre(rows: nearRows, near: Double(tipColumn), reach: 6, halfWidth: Int((nasionHalfWidth / cell).rounded()))
            ?? Double(tipColumn)
        let position = SIMD2(map.origin.x + column * map.cell, 0)
        return DetectedLandmark(
            point: SIMD3(position.x, b - curvature / 2 * shift * shift, map.origin.y + row * cell), normal: SIMD3(0, 1, 0),
            confidence: min(1, depth / 0.0015),
            evidence: String(format: "hollow %.1f mm deep between forehead and nose", depth * 1000))
    }
}

/// The profile's deepest row, or where that is one of its ends, the deepest row with ground
/// at least `LandmarkDetector.minimumHollow` higher both below and above it. An infant's
/// forehead rises on above the nasion; an adult's recedes above the brow, on a real head
/// scaled to an infant's size further back than the nasion, so the profile's deepest row is
/// the window's top and the nasion is the hollow below the brow.
func deepestHollow(_ profile: [(row: Int, height: Double)]) -> Int? {
    guard let deepest = profile.indices.min(by: { profile[$0].height < profile[$1].height }) else { return nil }
    guard deepest == 0 || deepest == profile.count - 1 else { return deepest }
    let heights = profile.map(\.height)
    var highestBelow = [Double](repeating: -.infinity, count: heights.count)
    var highestAbove = [Double](repeating: -.infinity, count: heights.count)
    for k in heights.indices.dropFirst() { highestBelow[k] = max(highestBelow[k - 1], heights[k - 1]) }
    for k in heights.indices.dropLast().reversed() { highestAbove[k] = max(highestAbove[k + 1], heights[k + 1]) }
    let margin = LandmarkDetector.minimumHollow
    return heights.indices.filter { highestBelow[$0] - heights[$0] >= margin && highestAbove[$0] - heights[$0] >= margin }
        .min { heights[$0] < heights[$1] }
}

/// The profile with each row that lies more than a millimetre off the median of its five
/// neighbouring rows set to that median. A crack in a fused face lets the map see the far
/// side of the head through one row; as the deepest point it would be taken for the nasion.
func withoutCracks(_ profile: [(row: Int, height: Double)]) -> [(row: Int, height: Double)] {
    profile.indices.map { k in
        let near = profile[max(0, k - 2)...min(profile.count - 1, k + 2)].map(\.height).sorted()
        let median = near[near.count / 2]
        return abs(profile[k].height - median) > 0.001 ? (profile[k].row, median) : profile[k]
    }
}

/// Cells of a height map that pass a test, and their connected parts.
struct CellMask {
    struct Cell: Hashable {
        var i: Int
        var j: Int
    }

    let columns: Int
    let rows: Int
    private(set) var set: [Bool]

    init(_ map: HeightMap, _ test: (Int, Int, Double) -> Bool) {
        columns = map.columns
        rows = map.rows
        set = [Bool](repeating: false, count: map.columns * map.rows)
        for j in 0..<rows {
            for i in 0..<columns {
                if let h = map[i, j], test(i, j, h) { set[j * columns + i] = true }
            }
        }
    }

    func contains(_ i: Int, _ j: Int) -> Bool { i >= 0 && j >= 0 && i < columns && j < rows && set[j * columns + i] }

    /// The largest 4-connected group of set cells, nil when none is set.
    /// The group of at least `minimumCells` whose highest cell by `height` is highest, among
    /// those clear of the grid's edge (a poor fit there raises false groups); a group touching
    /// the edge is taken only when there is no other.
    func mostProminent(minimumCells: Int, by height: @escaping (Cell) -> Double) -> [Cell]? {
        let touches = { (part: [Cell]) in part.contains(where: isOnEdge) }
        let peak = { (part: [Cell]) in part.map(height).max() ?? 0 }
        let big = components().filter { $0.count >= minimumCells }
        let clear = big.filter { !touches($0) && peak($0) > 0 }
        return (clear.isEmpty ? big : clear).max { peak($0) < peak($1) }
    }

    /// The share of a group's outline (its cells with a neighbour outside it) that lies on
    /// the grid's edge, where the group may go on out of view.
    func edgeShare(_ part: [Cell]) -> Double {
        let members = Set(part)
        let outline = part.filter { c in
            [(1, 0), (-1, 0), (0, 1), (0, -1)].contains { !members.contains(Cell(i: c.i + $0.0, j: c.j + $0.1)) }
        }
        guard !outline.isEmpty else { return 0 }
        let onEdge = outline.filter(isOnEdge).count
        return Double(onEdge) / Double(outline.count)
    }

    /// Whether `c` lies on the grid's outermost rows or columns.
    func isOnEdge(_ c: Cell) -> Bool {
        c.i == 0 || c.j == 0 || c.i == columns - 1 || c.j == rows - 1
    }

    /// Every 4-connected group of set cells.
    func components() -> [[Cell]] {
        var seen = [Bool](repeating: false, count: set.count)
        var all: [[Cell]] = []
        for start in set.indices where set[start] && !seen[start] {
            var part: [Cell] = []
            var stack = [start]
            seen[start] = true
            while let k = stack.popLast() {
                let c = Cell(i: k % columns, j: k / columns)
                part.append(c)
                for (di, dj) in [(1, 0), (-1, 0), (0, 1), (0, -1)] where contains(c.i + di, c.j + dj) {
                    let n = (c.j + dj) * columns + c.i + di
                    if !seen[n] { seen[n] = true; stack.append(n) }
                }
            }
            all.append(part)
        }
        return all
    }
}
