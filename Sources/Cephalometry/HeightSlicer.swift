import Geometry

/// A mesh in the head frame with its faces bucketed by height, so that slicing at one height
/// visits only the faces near it rather than the whole mesh.
///
/// Geometry's `TriangleMesh.slice(by:)` cuts every face for every plane; the search for the
/// slice of greatest contour length cuts a hundred or more planes, which that cost would
/// make too slow on a reconstructed mesh.
struct HeightSlicer {
    /// Vertices in the head frame.
    let points: [SIMD3<Double>]
    let faces: [SIMD3<Int32>]
    /// Lowest and highest vertex heights.
    let lowest: Double
    let highest: Double
    let binHeight: Double
    /// Faces of bin `b` are `binFaces[binStarts[b]..<binStarts[b + 1]]`.
    private let binStarts: [Int]
    private let binFaces: [Int32]

    init(mesh: TriangleMesh, headFromMesh: RigidTransform, binHeight: Double) {
        let points = mesh.vertices.map(headFromMesh.apply)
        let faces = mesh.faces
        // A loop, not a key path: this runs for every sample of the measurement's intervals.
        var lowest = points.first?.z ?? 0, highest = lowest
        for point in points {
            lowest = min(lowest, point.z)
            highest = max(highest, point.z)
        }
        let binCount = max(1, Int(((highest - lowest) / binHeight).rounded(.down)) + 1)
        func bins(of face: SIMD3<Int32>) -> ClosedRange<Int> {
            let a = points[Int(face.x)].z, b = points[Int(face.y)].z, c = points[Int(face.z)].z
            let low = Int((min(a, b, c) - lowest) / binHeight), high = Int((max(a, b, c) - lowest) / binHeight)
            return min(low, binCount - 1)...min(high, binCount - 1)
        }
        // Two passes (count, then fill) keep the buckets in one contiguous array.
        var starts = [Int](repeating: 0, count: binCount + 1)
        for face in faces {
            for b in bins(of: face) { starts[b + 1] += 1 }
        }
        for b in 0..<binCount { starts[b + 1] += starts[b] }
        var fill = starts
        var list = [Int32](repeating: 0, count: starts[binCount])
        for (index, face) in faces.enumerated() {
            for b in bins(of: face) {
                list[fill[b]] = Int32(index)
                fill[b] += 1
            }
        }
        self.points = points
        self.faces = faces
        self.lowest = lowest
        self.highest = highest
        self.binHeight = binHeight
        binStarts = starts
        binFaces = list
    }

    /// The polylines where the plane at height `z` cuts the mesh, in the plane's x–y.
    ///
    /// A vertex exactly at `z` counts as above, so every crossing is transversal.
    func chains(at z: Double) -> [Chain] {
        guard z >= lowest, z <= highest else { return [] }
        let bin = min(Int((z - lowest) / binHeight), binStarts.count - 2)
        var pointOfEdge: [UInt64: Int32] = [:]
        var crossings: [SIMD2<Double>] = []
        var links: [SIMD2<Int32>] = []
        func crossing(_ a: Int32, _ b: Int32, _ da: Double, _ db: Double) -> Int32 {
            let key = UInt64(UInt32(min(a, b))) << 32 | UInt64(UInt32(max(a, b)))
            if let index = pointOfEdge[key] { return index }
            let pa = points[Int(a)], pb = points[Int(b)]
            let t = da / (da - db)
            let p = pa + (pb - pa) * t
            let index = Int32(crossings.count)
            crossings.append(SIMD2(p.x, p.y))
            links.append(SIMD2(-1, -1))
            pointOfEdge[key] = index
            return index
        }
        func link(_ a: Int32, _ b: Int32) {
            // A third link only happens at non-manifold edges; dropping it splits the chain
            // there, which gap closing then repairs.
            if links[Int(a)].x < 0 { links[Int(a)].x = b } else if links[Int(a)].y < 0 { links[Int(a)].y = b }
            if links[Int(b)].x < 0 { links[Int(b)].x = a } else if links[Int(b)].y < 0 { links[Int(b)].y = a }
        }
        for f in binFaces[binStarts[bin]..<binStarts[bin + 1]] {
            let face = faces[Int(f)]
            let d = SIMD3(points[Int(face.x)].z, points[Int(face.y)].z, points[Int(face.z)].z) - z
            let above = (d.x >= 0, d.y >= 0, d.z >= 0)
            guard above.0 != above.1 || above.1 != above.2 else { continue }
            // Exactly two edges cross; the lone vertex is the one on its own side.
            let ends: (Int32, Int32)
            if above.0 == above.1 {
                ends = (crossing(face.y, face.z, d.y, d.z), crossing(face.z, face.x, d.z, d.x))
            } else if above.1 == above.2 {
                ends = (crossing(face.x, face.y, d.x, d.y), crossing(face.z, face.x, d.z, d.x))
            } else {
                ends = (crossing(face.x, face.y, d.x, d.y), crossing(face.y, face.z, d.y, d.z))
            }
            if ends.0 != ends.1 { link(ends.0, ends.1) }
        }
        return walk(crossings, links)
    }

    /// Chains the linked crossing points: open chains from their ends first, so they come out
    /// whole, then the closed loops.
    private func walk(_ crossings: [SIMD2<Double>], _ links: [SIMD2<Int32>]) -> [Chain] {
        var visited = [Bool](repeating: false, count: crossings.count)
        var chains: [Chain] = []
        func follow(from start: Int) {
            var path = [crossings[start]]
            visited[start] = true
            var current = start
            while true {
                let l = links[current]
                if l.x >= 0, !visited[Int(l.x)] {
                    current = Int(l.x)
                } else if l.y >= 0, !visited[Int(l.y)] {
                    current = Int(l.y)
                } else {
                    break
                }
                visited[current] = true
                path.append(crossings[current])
            }
            let closes = path.count > 2 && (links[current].x == Int32(start) || links[current].y == Int32(start))
            chains.append(Chain(points: path, isClosed: closes))
        }
        for i in crossings.indices where !visited[i] && (links[i].x < 0 || links[i].y < 0) { follow(from: i) }
        for i in crossings.indices where !visited[i] { follow(from: i) }
        return chains
    }
}

/// A polyline in a slice plane (metres, head frame x–y).
struct Chain {
    var points: [SIMD2<Double>]
    var isClosed: Bool
}
