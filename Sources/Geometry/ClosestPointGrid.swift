/// The surface point nearest to a query, found through a uniform grid of the triangles'
/// bounding boxes instead of every triangle: rings of cells are searched outward until no
/// nearer triangle can lie beyond them.
public struct ClosestPointGrid: Sendable {
    /// What a query finds.
    public struct Hit: Sendable, Equatable {
        /// The nearest surface point.
        public var point: SIMD3<Double>
        /// Its distance to the query.
        public var distance: Double
        /// The triangle it lies on.
        public var face: Int
    }

    private let mesh: TriangleMesh
    private let origin: SIMD3<Double>
    private let cell: Double
    private let counts: SIMD3<Int>
    /// Faces of cell `c` are `cellFaces[cellStarts[c]..<cellStarts[c + 1]]`.
    private let cellStarts: [Int]
    private let cellFaces: [Int32]
    /// Per face a sphere around it (centre, radius): a face whose sphere lies farther than the
    /// best hit so far is passed over without computing its nearest point.
    private let spheres: [SIMD4<Double>]

    /// A grid over `mesh` with cells of about `cellSize` (metres); nil for a mesh without faces.
    public init?(_ mesh: TriangleMesh, cellSize: Double) {
        guard !mesh.faces.isEmpty, mesh.isValid, let bounds = mesh.bounds, cellSize > 0 else { return nil }
        let extent = bounds.max - bounds.min
        // At most 128 cells along the longest side, whatever the mesh's size.
        let size = max(cellSize, max(extent.x, extent.y, extent.z) / 128)
        let counts = SIMD3(Int(extent.x / size) + 1, Int(extent.y / size) + 1, Int(extent.z / size) + 1)
        func cellRange(_ lo: SIMD3<Double>, _ hi: SIMD3<Double>) -> (SIMD3<Int>, SIMD3<Int>) {
            let a = (lo - bounds.min) / size, b = (hi - bounds.min) / size
            return (SIMD3(Int(a.x), Int(a.y), Int(a.z)), SIMD3(min(Int(b.x), counts.x - 1), min(Int(b.y), counts.y - 1), min(Int(b.z), counts.z - 1)))
        }
        func index(_ x: Int, _ y: Int, _ z: Int) -> Int { (z * counts.y + y) * counts.x + x }
        var starts = [Int](repeating: 0, count: counts.x * counts.y * counts.z + 1)
        func forEachCell(of face: Int, _ body: (Int) -> Void) {
            let (a, b, c) = mesh.corners(of: face)
            let (lo, hi) = cellRange(pointwiseMin(a, pointwiseMin(b, c)), pointwiseMax(a, pointwiseMax(b, c)))
            for z in lo.z...hi.z { for y in lo.y...hi.y { for x in lo.x...hi.x { body(index(x, y, z)) } } }
        }
        for face in mesh.faces.indices { forEachCell(of: face) { starts[$0 + 1] += 1 } }
        for c in 1..<starts.count { starts[c] += starts[c - 1] }
        var fill = starts
        var faces = [Int32](repeating: 0, count: starts[starts.count - 1])
        for face in mesh.faces.indices {
            forEachCell(of: face) { c in
                faces[fill[c]] = Int32(face)
                fill[c] += 1
            }
        }
        self.mesh = mesh
        spheres = mesh.faces.indices.map { face in
            let (a, b, c) = mesh.corners(of: face)
            let centre = (a + b + c) / 3
            let radius = max(length(a - centre), length(b - centre), length(c - centre))
            return SIMD4(centre, radius)
        }
        origin = bounds.min
        cell = size
        self.counts = counts
        cellStarts = starts
        cellFaces = faces
    }

    /// The nearest surface point to `p`, searching no farther than `maximumDistance`; nil when
    /// nothing lies that close.
    public func closest(to p: SIMD3<Double>, maximumDistance: Double = .infinity) -> Hit? {
        let g = (p - origin) / cell
        let centre = SIMD3(Int(g.x.rounded(.down)), Int(g.y.rounded(.down)), Int(g.z.rounded(.down)))
        var best = Hit(point: p, distance: maximumDistance, face: -1)
        let outside = pointwiseMax(SIMD3(repeating: 0), pointwiseMax(0 &- centre, centre &- counts &+ 1)).max()
        let maxRing = min(counts.max() + outside + 1, maximumDistance.isFinite ? Int(maximumDistance / cell) + 1 : Int.max)
        var ring = 0
        while ring <= maxRing {
            let lo = pointwiseMax(SIMD3(repeating: 0), centre &- ring)
            let hi = pointwiseMin(counts &- 1, centre &+ ring)
            for z in stride(from: lo.z, through: hi.z, by: 1) {
                for y in stride(from: lo.y, through: hi.y, by: 1) {
                    if abs(z - centre.z) == ring || abs(y - centre.y) == ring {
                        for x in stride(from: lo.x, through: hi.x, by: 1) { visit(x, y, z, p, &best) }
                    } else {
                        // Inside the shell's faces only its two x ends are new.
                        if centre.x - ring >= 0, centre.x - ring < counts.x { visit(centre.x - ring, y, z, p, &best) }
                        if ring > 0, centre.x + ring >= 0, centre.x + ring < counts.x { visit(centre.x + ring, y, z, p, &best) }
                    }
                }
            }
            // Everything inside the searched cube has been looked at, so a hit nearer than the
            // cube's nearest face cannot be beaten farther out.
            let low = g - SIMD3<Double>(centre &- ring), high = SIMD3<Double>(centre &+ (ring + 1)) - g
            if best.face >= 0, best.distance <= min(low.min(), high.min()) * cell { return best }
            ring += 1
        }
        return best.face >= 0 ? best : nil
    }

    /// Tests the faces of one cell against the best hit so far.
    private func visit(_ x: Int, _ y: Int, _ z: Int, _ p: SIMD3<Double>, _ best: inout Hit) {
        let c = (z * counts.y + y) * counts.x + x
        for i in cellStarts[c]..<cellStarts[c + 1] {
            let f = Int(cellFaces[i])
            let sphere = spheres[f]
            let offset = SIMD3(sphere.x, sphere.y, sphere.z) - p
            // The margin keeps rounding from passing over a face that would tie the best.
            let reach = (best.distance + sphere.w) * (1 + 1e-9)
            if (offset * offset).sum() > reach * reach { continue }
            let q = TriangleMesh.closestPoint(on: mesh.corners(of: f), to: p)
            let d = ((q - p) * (q - p)).sum()
            if d < best.distance * best.distance {
                best = Hit(point: q, distance: d.squareRoot(), face: f)
            }
        }
    }
}
