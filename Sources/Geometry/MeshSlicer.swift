/// A plane through `point` with unit `normal`.
public struct Plane: Sendable, Hashable {
    /// A point on the plane.
    public var point: SIMD3<Double>
    /// Unit normal; the positive side is where it points.
    public var normal: SIMD3<Double>

    /// A plane from a point and a (not necessarily unit) normal.
    public init(point: SIMD3<Double>, normal: SIMD3<Double>) {
        self.point = point
        self.normal = Geometry.normalized(normal)
    }

    /// Signed distance of `p` from the plane.
    @inlinable
    public func distance(_ p: SIMD3<Double>) -> Double { dot(p - point, normal) }
}

/// A polyline cut from a mesh by a plane.
public struct SliceLoop: Sendable, Equatable {
    /// Points in order; for closed loops the last connects back to the first.
    public var points: [SIMD3<Double>]
    /// Whether the loop closes (it does wherever the mesh is closed).
    public var isClosed: Bool
}

extension TriangleMesh {
    /// The curves where `plane` cuts the mesh, chained into loops through shared edges.
    ///
    /// Vertices lying exactly on the plane count as above it, so every crossing is
    /// transversal and loops never branch.
    public func slice(by plane: Plane) -> [SliceLoop] {
        let side = vertices.map { plane.distance($0) }
        var segments: [(EdgeKey, EdgeKey)] = []
        var pointOnEdge: [EdgeKey: SIMD3<Double>] = [:]
        for face in faces {
            let ids = [Int(face.x), Int(face.y), Int(face.z)]
            var crossings: [EdgeKey] = []
            for k in 0..<3 {
                let a = ids[k], b = ids[(k + 1) % 3]
                guard (side[a] >= 0) != (side[b] >= 0) else { continue }
                let key = EdgeKey(a, b)
                if pointOnEdge[key] == nil {
                    let t = side[a] / (side[a] - side[b])
                    pointOnEdge[key] = vertices[a] + (vertices[b] - vertices[a]) * t
                }
                crossings.append(key)
            }
            if crossings.count == 2 { segments.append((crossings[0], crossings[1])) }
        }
        return chain(segments).map { keys in
            SliceLoop(points: keys.keys.map { pointOnEdge[$0]! }, isClosed: keys.closed)
        }
    }

    private func chain(_ segments: [(EdgeKey, EdgeKey)]) -> [(keys: [EdgeKey], closed: Bool)] {
        var neighbours: [EdgeKey: [EdgeKey]] = [:]
        for (a, b) in segments {
            neighbours[a, default: []].append(b)
            neighbours[b, default: []].append(a)
        }
        var visited = Set<EdgeKey>()
        var loops: [(keys: [EdgeKey], closed: Bool)] = []
        // Open chains first start at their ends, so they come out whole.
        let starts = neighbours.keys.filter { neighbours[$0]!.count == 1 } + neighbours.keys.sorted()
        for start in starts where !visited.contains(start) {
            var path = [start]
            visited.insert(start)
            var current = start
            while let next = neighbours[current]?.first(where: { !visited.contains($0) }) {
                visited.insert(next)
                path.append(next)
                current = next
            }
            let closed = path.count > 2 && neighbours[current]?.contains(start) == true
            loops.append((path, closed))
        }
        return loops
    }
}

/// An undirected mesh edge.
struct EdgeKey: Hashable, Comparable {
    let low: Int
    let high: Int

    init(_ a: Int, _ b: Int) {
        low = min(a, b)
        high = max(a, b)
    }

    static func < (l: EdgeKey, r: EdgeKey) -> Bool { (l.low, l.high) < (r.low, r.high) }
}
