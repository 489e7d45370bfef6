import Geometry

/// Loop's subdivision of a triangle mesh: each triangle becomes four, and every vertex moves
/// toward the smooth surface the mesh approximates, so that a coarse head surface (an MRI
/// scalp of 2 000 vertices has facets of 7–10 mm) renders and holds flat stickers as a head
/// does, not as a polyhedron. Edges with one triangle are boundaries: their points are the
/// edges' midpoints and their vertices stay; edges shared by more than two triangles are
/// treated as boundaries too.
enum LoopSubdivision {
    static func subdivide(_ mesh: TriangleMesh) -> TriangleMesh {
        struct Edge: Hashable {
            let a: Int32, b: Int32
            init(_ u: Int32, _ v: Int32) { (a, b) = u < v ? (u, v) : (v, u) }
        }
        var opposite: [Edge: [Int32]] = [:]
        for f in mesh.faces {
            opposite[Edge(f.x, f.y), default: []].append(f.z)
            opposite[Edge(f.y, f.z), default: []].append(f.x)
            opposite[Edge(f.z, f.x), default: []].append(f.y)
        }
        let old = mesh.vertices
        var neighbours = [Set<Int32>](repeating: [], count: old.count)
        var boundary = [Bool](repeating: false, count: old.count)
        for (edge, across) in opposite {
            neighbours[Int(edge.a)].insert(edge.b)
            neighbours[Int(edge.b)].insert(edge.a)
            if across.count != 2 {
                boundary[Int(edge.a)] = true
                boundary[Int(edge.b)] = true
            }
        }
        var vertices = old.indices.map { i -> SIMD3<Double> in
            let n = Double(neighbours[i].count)
            guard !boundary[i], n >= 3 else { return old[i] }
            let beta = n == 3 ? 3.0 / 16 : 3 / (8 * n)
            let sum = neighbours[i].reduce(SIMD3<Double>.zero) { $0 + old[Int($1)] }
            return old[i] * (1 - n * beta) + sum * beta
        }
        var edgePoint: [Edge: Int32] = [:]
        edgePoint.reserveCapacity(opposite.count)
        for (edge, across) in opposite {
            let (p, q) = (old[Int(edge.a)], old[Int(edge.b)])
            let point = across.count == 2 ? (p + q) * 0.375 + (old[Int(across[0])] + old[Int(across[1])]) * 0.125 : (p + q) / 2
            edgePoint[edge] = Int32(vertices.count)
            vertices.append(point)
        }
        var faces: [SIMD3<Int32>] = []
        faces.reserveCapacity(mesh.faces.count * 4)
        for f in mesh.faces {
            guard let ab = edgePoint[Edge(f.x, f.y)], let bc = edgePoint[Edge(f.y, f.z)], let ca = edgePoint[Edge(f.z, f.x)] else { continue }
            faces += [SIMD3(f.x, ab, ca), SIMD3(ab, f.y, bc), SIMD3(ca, bc, f.z), SIMD3(ab, bc, ca)]
        }
        return TriangleMesh(vertices: vertices, faces: faces)
    }

    /// The mean edge length, metres (0 for a mesh without faces).
    static func meanEdge(_ mesh: TriangleMesh) -> Double {
        guard !mesh.faces.isEmpty else { return 0 }
        var sum = 0.0
        for i in mesh.faces.indices {
            let (a, b, c) = mesh.corners(of: i)
            sum += length(b - a) + length(c - b) + length(a - c)
        }
        return sum / Double(3 * mesh.faces.count)
    }
}
