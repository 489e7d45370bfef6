/// The 256-case marching cubes table, generated from first principles rather than typed in.
///
/// Corners are numbered `x + 2y + 4z`; an edge joins two corners that differ in one bit. A
/// case is the set of corners whose value is negative (inside). On every face of the cube the
/// crossed edges are joined into directed segments; the segments of all six faces close into
/// loops, and each loop is fanned into triangles.
///
/// A face with four crossings is ambiguous. It is resolved from the face's signs alone (each
/// inside corner is cut off by its own segment), so two cells sharing the face cut it the
/// same way and the mesh has no cracks, unlike the original table's arbitrary choices.
/// Segments are directed so that triangles wind counter-clockwise seen from the outside
/// (positive values), as `TriangleMesh` expects.
enum MarchingCubesTable {
    /// The two corners of each edge, lower corner first.
    static let edges: [(Int, Int)] = {
        var out: [(Int, Int)] = []
        for axis in 0..<3 {
            for corner in 0..<8 where corner & (1 << axis) == 0 { out.append((corner, corner | 1 << axis)) }
        }
        return out
    }()

    /// Axis (0 = x, 1 = y, 2 = z) along which each edge runs.
    static let edgeAxes: [Int] = edges.map { a, b in (a ^ b).trailingZeroBitCount }

    /// Triangles per case, three edge indices each.
    static let triangles: [[Int]] = (0..<256).map(triangulate)

    private static func edgeIndex(_ a: Int, _ b: Int) -> Int {
        edges.firstIndex { $0 == (min(a, b), max(a, b)) }!
    }

    /// Corners of each face in counter-clockwise order seen from outside the cube.
    private static let faces: [[Int]] = {
        var out: [[Int]] = []
        for axis in 0..<3 {
            // (u, v, axis) is right-handed, so the square (0,0) (1,0) (1,1) (0,1) in u, v turns
            // counter-clockwise about +axis.
            let u = (axis + 1) % 3, v = (axis + 2) % 3
            for side in 0..<2 {
                var ring = [(0, 0), (1, 0), (1, 1), (0, 1)].map { a, b in a << u | b << v | side << axis }
                if side == 0 { ring.reverse() }
                out.append(ring)
            }
        }
        return out
    }()

    private static func triangulate(_ inside: Int) -> [Int] {
        let negative = (0..<8).map { inside & (1 << $0) != 0 }
        // next[e] = edge that the directed segment starting at edge e ends at.
        var next = [Int](repeating: -1, count: 12)
        for ring in faces {
            // Crossings in counter-clockwise order, with whether they leave the outside.
            var crossings: [(edge: Int, entersInside: Bool)] = []
            for i in 0..<4 {
                let a = ring[i], b = ring[(i + 1) % 4]
                if negative[a] != negative[b] { crossings.append((edgeIndex(a, b), negative[b])) }
            }
            // Each crossing into the inside pairs with the next crossing out of it, which cuts
            // off the inside corners between them.
            for (i, c) in crossings.enumerated() where c.entersInside {
                next[c.edge] = crossings[(i + 1) % crossings.count].edge
            }
        }
        var out: [Int] = []
        var used = [Bool](repeating: false, count: 12)
        for start in 0..<12 where next[start] >= 0 && !used[start] {
            var loop: [Int] = []
            var e = start
            while !used[e] {
                used[e] = true
                loop.append(e)
                e = next[e]
            }
            for k in 1..<(loop.count - 1) { out += [loop[0], loop[k], loop[k + 1]] }
        }
        return out
    }
}
