import Foundation
import Geometry

extension LandmarkDetector {
    /// The tragion of the ear on `side` (−1 left, 1 right) of a mesh already in the head
    /// frame, looked at from that side over `y` × `z`.
    static func tragion(
        _ mesh: TriangleMesh, side: Double, y: ClosedRange<Double>, z: ClosedRange<Double>, expected: SIMD2<Double>
    ) throws(CephalometryError)
        -> DetectedLandmark
    {
        let name = side < 0 ? "left" : "right"
        let (y0, columns) = grid(y), (z0, rows) = grid(z)
        var map = HeightMap(
            mesh, origin: SIMD2(y0, z0), cell: cell, columns: columns, rows: rows,
            across: { SIMD2($0.y, $0.z) }, along: { side * $0.x })
        map.fillHoles(rounds: holeRounds)
        map.dropSeeThrough()
        guard let first = SkinSurface(map, cubic: true), let rough = prominentPart(map, skin: first, above: 0.003, near: expected) else {
            throw .unusableMesh("no \(name) ear stands out of the head; scan that side too, or pick the \(name) tragion")
        }
        // The skin again from around the ear only, then the ear's core above it: where the
        // head curves away from the wide fit, that fit leaves false bumps the core is free of.
        let skin = SkinSurface(map, cubic: true, include: Box(rough).around(margin: 0.010, leavingOut: 0.002)) ?? first
        // The ear's core above the refitted skin: the part that overlaps the first ear most.
        let roughCells = Set(rough)
        let core =
            CellMask(map) { i, j, _ in (map.rise(i, j, above: skin) ?? 0) > 0.0025 }.components()
            .max { a, b in a.filter(roughCells.contains).count < b.filter(roughCells.contains).count } ?? rough
        func rise(_ i: Int, _ j: Int) -> Double? { map.rise(i, j, above: skin) }
        let box = Box(core).grown(by: Int((0.008 / cell).rounded()))
        let coreCells = Set(core)
        let parts = CellMask(map) { i, j, _ in box.contains(i, j) && (rise(i, j) ?? 0) > earThreshold }.components()
        let whole = Set(parts.max { a, b in a.filter(coreCells.contains).count < b.filter(coreCells.contains).count } ?? core)
        let (iLow, iHigh, jLow, jHigh) = (box.i.lowerBound, box.i.upperBound, box.j.lowerBound, box.j.upperBound)
        let outline = frontOutline(map, cells: whole, rise: rise)
        let coreRows = Box(core).j
        let coreHeights = map.position(0, coreRows.lowerBound).y...map.position(0, coreRows.upperBound).y
        guard let notch = deepestPocket(outline, within: coreHeights) else {
            throw .unusableMesh("the \(name) ear shows no notch above the tragus; check that ear in the replay, or pick the \(name) tragion")
        }
        // A tragus too low to stand above the threshold with the rest of the ear drops out of
        // its outline: the pocket then runs from below the concha to the crus, and its middle
        // lies on the tragus, millimetres below the notch. What stands out inside the pocket
        // apart from the ear says so.
        // A tragus barely above the skin leaves nothing above the threshold to show; then the
        // pocket is the whole concha behind it, far larger than a notch.
        let apart = CellMask(map) { i, j, _ in box.contains(i, j) && !whole.contains(CellMask.Cell(i: i, j: j)) && (rise(i, j) ?? 0) > earThreshold }
        let pocketCells = box.i.flatMap { i in box.j.map { j in (i, j) } }.filter { i, j in
            !whole.contains(CellMask.Cell(i: i, j: j)) && rise(i, j) != nil
        }
        let pocketArea = Double(notch.count(inside: pocketCells.map { map.position($0.0, $0.1) })) * cell * cell
        if apart.components().contains(where: { notch.count(inside: $0.map { map.position($0.i, $0.j) }) >= minimumTragusCells })
            || pocketArea > maximumNotchArea
        {
            throw .unusableMesh(
                "the \(name) ear's tragus stands too little out of the cheek to find the notch above it; pick the \(name) tragion")
        }
        let across = notch.middle
        let height = skin.height(at: across)
        let covered = Double((jLow...jHigh).filter { j in (iLow...iHigh).contains { map[$0, j] != nil } }.count) / Double(jHigh - jLow + 1)
        return DetectedLandmark(
            point: SIMD3(side * height, across.x, across.y), normal: SIMD3(side, 0, 0),
            confidence: min(1, notch.depth / 0.0015) * covered,
            evidence: String(
                format: "notch %.1f mm deep between tragus and helix, mouth %.1f mm", notch.depth * 1000, Geometry.distance(notch.a, notch.b) * 1000))
    }

    /// The part of the map standing more than `above` out of `skin` whose peak is highest,
    /// counting less the farther its middle lies from `expected` (20 mm halves it). A part
    /// whose outline runs along the map's edge for more than a third of its length is the
    /// head curving away from the fitted skin out of view, not an ear: it is taken only when
    /// there is nothing else.
    static func prominentPart(_ map: HeightMap, skin: SkinSurface, above: Double, near expected: SIMD2<Double>) -> [CellMask.Cell]? {
        let rise = { (c: CellMask.Cell) in map.rise(c.i, c.j, above: skin) ?? -.infinity }
        let mask = CellMask(map) { i, j, _ in rise(CellMask.Cell(i: i, j: j)) > above }
        let big = mask.components().filter { $0.count >= 40 }
        let inView = big.filter { mask.edgeShare($0) <= 1.0 / 3 }
        let parts = inView.isEmpty ? big : inView
        func score(_ part: [CellMask.Cell]) -> Double {
            let middle = part.reduce(SIMD2<Double>.zero) { $0 + map.position($1.i, $1.j) } / Double(part.count)
            return part.map(rise).max()! / (1 + Geometry.distance(middle, expected) / 0.02)
        }
        return parts.max { score($0) < score($1) }
    }

    /// Per row, where the ear (`cells`) rises out of the skin furthest forward: (y, z), metres.
    static func frontOutline(_ map: HeightMap, cells: Set<CellMask.Cell>, rise: (Int, Int) -> Double?) -> [SIMD2<Double>] {
        var front: [Int: Int] = [:]
        for c in cells { front[c.j] = max(front[c.j] ?? c.i, c.i) }
        var out: [SIMD2<Double>] = []
        for j in front.keys.sorted() {
            let i = front[j]!
            var y = map.position(i, j).x
            // Between this cell and the next forward one the rise passes the threshold.
            if let inside = rise(i, j), let outside = rise(i + 1, j), inside > outside {
                y += map.cell * min(1, (inside - earThreshold) / (inside - outside))
            }
            out.append(SIMD2(y, map.position(i, j).y))
        }
        return out
    }

    /// The notch: a pocket of the outline behind the line that bridges it (the outline's hull
    /// seen from the front), among bridges of a notch's span between `heights` (the ear's core);
    /// nil when there is none.
    static func deepestPocket(_ outline: [SIMD2<Double>], within heights: ClosedRange<Double>) -> Pocket? {
        // Upper hull in (z, y): the points a line from the front touches.
        var hull: [Int] = []
        for k in outline.indices {
            while hull.count >= 2 {
                let o = outline[hull[hull.count - 2]], a = outline[hull[hull.count - 1]], b = outline[k]
                // Keep `a` only when it lies in front of the line from o to b.
                let cross = (a.y - o.y) * (b.x - o.x) - (a.x - o.x) * (b.y - o.y)
                if cross >= 0 { hull.removeLast() } else { break }
            }
            hull.append(k)
        }
        var pockets: [Pocket] = []
        for (ka, kb) in zip(hull, hull.dropFirst()) where kb > ka + 1 {
            let pocket = Pocket(outline[ka...kb])
            guard notchSpan.contains(pocket.b.y - pocket.a.y), heights.contains(pocket.a.y), heights.contains(pocket.b.y) else { continue }
            if pocket.depth >= minimumNotchDepth { pockets.append(pocket) }
        }
        // Below the tragus lies a second notch (toward the antitragus), sometimes deeper: of
        // the deep pockets, the notch above the tragus is the upper one.
        let deepest = pockets.map(\.depth).max() ?? 0
        return pockets.filter { $0.depth >= deepest / 2 }.max { $0.a.y < $1.a.y }
    }

    /// A pocket of the ear's front outline: the stretch of outline (y forward, z up) between
    /// two points `a` (below) and `b` (above) of its hull, which the line from `a` to `b`
    /// bridges.
    struct Pocket {
        /// The outline from `a` to `b`, both included.
        let points: [SIMD2<Double>]
        let a: SIMD2<Double>
        let b: SIMD2<Double>
        /// The deepest the outline lies behind the bridge, metres.
        private(set) var depth = 0.0

        init(_ points: ArraySlice<SIMD2<Double>>) {
            self.points = Array(points)
            a = self.points.first ?? .zero
            b = self.points.last ?? .zero
            depth = self.points.map(behind).max() ?? 0
        }

        /// How many of `points` lie inside the pocket: between its ends' heights, behind the
        /// bridge and in front of the outline.
        func count(inside points: [SIMD2<Double>]) -> Int {
            let inside = points.filter { p in
                guard p.y > a.y, p.y < b.y, behind(p) > 0 else { return false }
                // The outline's point nearest in height.
                guard let row = self.points.min(by: { abs($0.y - p.y) < abs($1.y - p.y) }) else { return false }
                return p.x > row.x
            }
            return inside.count
        }

        /// Unit direction of the bridge from `a` to `b`.
        var along: SIMD2<Double> {
            let d = b - a
            return d / (d * d).sum().squareRoot()
        }

        /// How far a point lies behind the bridge, metres.
        func behind(_ p: SIMD2<Double>) -> Double {
            let u = along
            // The bridge's normal toward the front (+y).
            let front = u.y >= 0 ? SIMD2(u.y, -u.x) : SIMD2(-u.y, u.x)
            return -((p - a) * front).sum()
        }

        /// Where the notch's middle meets the bridge: the middle, along the bridge, of the
        /// stretch lying deeper than `notchGapDepth` (or half the pocket's depth, if shallower)
        /// around the deepest point. Where the pocket's own flanks cross that depth they are
        /// steep, so a fraction of a millimetre of noise on the outline moves the point by
        /// about as much; the bridge's ends touch the tragus and crus where both are nearly
        /// flat, and there the same noise can slide a touching point by a millimetre or more.
        var middle: SIMD2<Double> {
            let u = along
            let depths = points.map(behind)
            let offsets = points.map { (($0 - a) * u).sum() }
            guard let deepest = depths.indices.max(by: { depths[$0] < depths[$1] }) else { return (a + b) / 2 }
            let level = min(LandmarkDetector.notchGapDepth, depths[deepest] / 2)
            // Walks from the deepest point to where the outline comes up to `level`.
            func edge(step: Int) -> Double {
                var k = deepest
                while depths.indices.contains(k + step), depths[k + step] >= level { k += step }
                guard depths.indices.contains(k + step) else { return offsets[k] }
                let f = (depths[k] - level) / (depths[k] - depths[k + step])
                return offsets[k] + f * (offsets[k + step] - offsets[k])
            }
            return a + u * ((edge(step: -1) + edge(step: 1)) / 2)
        }
    }
}

/// The cell box around a group of cells.
struct Box {
    var i: ClosedRange<Int>
    var j: ClosedRange<Int>

    init(_ cells: [CellMask.Cell]) {
        i = cells.map(\.i).min()!...cells.map(\.i).max()!
        j = cells.map(\.j).min()!...cells.map(\.j).max()!
    }

    func contains(_ ci: Int, _ cj: Int) -> Bool { i.contains(ci) && j.contains(cj) }

    func grown(by n: Int) -> Box {
        var b = self
        b.i = (i.lowerBound - n)...(i.upperBound + n)
        b.j = (j.lowerBound - n)...(j.upperBound + n)
        return b
    }

    /// Cells within `margin` metres of the box but not within `leavingOut` of it.
    func around(margin: Double, leavingOut: Double) -> (Int, Int) -> Bool {
        let outer = grown(by: Int((margin / LandmarkDetector.cell).rounded()))
        let inner = grown(by: Int((leavingOut / LandmarkDetector.cell).rounded()))
        return { outer.contains($0, $1) && !inner.contains($0, $1) }
    }
}
