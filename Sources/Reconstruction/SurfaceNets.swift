import Geometry

extension TSDFVolume {
    /// The zero level set as a triangle mesh, by surface nets: one vertex per cell that the
    /// surface crosses (the mean of its edge crossings), one quad per crossed voxel edge.
    /// Cells with a corner seen fewer than `minimumWeight` times are left open. About half
    /// the vertices of marching cubes, but each vertex averages its cell's crossings, which
    /// rounds off detail finer than a voxel; kept for comparison.
    public func extractSurfaceNets(minimumWeight: Float = 2) -> TriangleMesh {
        let side = Self.side
        @inline(__always) func key(_ g: SIMD3<Int32>) -> Int64 {
            (Int64(g.x) + (1 << 20)) << 42 | (Int64(g.y) + (1 << 20)) << 21 | (Int64(g.z) + (1 << 20))
        }
        func sample(_ g: SIMD3<Int32>) -> Float? {
            let b = SIMD3(g.x >> 3, g.y >> 3, g.z >> 3)
            guard let index = blockIndex[b] else { return nil }
            let l = g &- b &* 8
            let j = Int(index) * Self.blockVoxels + (Int(l.z) * side + Int(l.y)) * side + Int(l.x)
            return weights[j] >= minimumWeight ? distances[j] : nil
        }
        let offsets: [SIMD3<Int32>] = [
            SIMD3(0, 0, 0), SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(1, 1, 0),
            SIMD3(0, 0, 1), SIMD3(1, 0, 1), SIMD3(0, 1, 1), SIMD3(1, 1, 1),
        ]
        let edges: [(Int, Int)] = [(0, 1), (2, 3), (4, 5), (6, 7), (0, 2), (1, 3), (4, 6), (5, 7), (0, 4), (1, 5), (2, 6), (3, 7)]
        var vertices: [SIMD3<Double>] = []
        var cellVertex: [Int64: Int32] = [:]
        var cells: [SIMD3<Int32>] = []
        var values = [Float](repeating: 0, count: 8)
        for (b, coord) in blockCoords.enumerated() {
            let base = b * Self.blockVoxels
            for lz in 0..<side {
                for ly in 0..<side {
                    for lx in 0..<side {
                        let g = coord &* 8 &+ SIMD3(Int32(lx), Int32(ly), Int32(lz))
                        var complete = true
                        if lx < side - 1, ly < side - 1, lz < side - 1 {
                            for (n, o) in offsets.enumerated() {
                                let j = base + ((lz + Int(o.z)) * side + ly + Int(o.y)) * side + lx + Int(o.x)
                                if weights[j] < minimumWeight { complete = false; break }
                                values[n] = distances[j]
                            }
                        } else {
                            for (n, o) in offsets.enumerated() {
                                guard let v = sample(g &+ o) else { complete = false; break }
                                values[n] = v
                            }
                        }
                        guard complete else { continue }
                        var negative = 0
                        for v in values where v < 0 { negative += 1 }
                        guard negative > 0, negative < 8 else { continue }
                        var sum = SIMD3<Double>.zero, count = 0.0
                        for (a, e) in edges where (values[a] < 0) != (values[e] < 0) {
                            let s = Double(values[a] / (values[a] - values[e]))
                            sum += SIMD3<Double>(offsets[a]) + s * SIMD3<Double>(offsets[e] &- offsets[a])
                            count += 1
                        }
                        cellVertex[key(g)] = Int32(vertices.count)
                        vertices.append((SIMD3<Double>(g) + sum / count) * voxelSize)
                        cells.append(g)
                    }
                }
            }
        }
        var faces: [SIMD3<Int32>] = []
        let axes: [(SIMD3<Int32>, SIMD3<Int32>, SIMD3<Int32>)] = [
            (SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)),
            (SIMD3(0, 1, 0), SIMD3(0, 0, 1), SIMD3(1, 0, 0)),
            (SIMD3(0, 0, 1), SIMD3(1, 0, 0), SIMD3(0, 1, 0)),
        ]
        for g in cells {
            guard let here = sample(g) else { continue }
            for (a, b, c) in axes {
                guard let there = sample(g &+ a), (here < 0) != (there < 0) else { continue }
                guard let v0 = cellVertex[key(g)], let v1 = cellVertex[key(g &- b)],
                      let v2 = cellVertex[key(g &- b &- c)], let v3 = cellVertex[key(g &- c)] else { continue }
                // The quad's order turns about +a; the outside (positive distance) decides
                // which way the faces must point.
                if here < 0 {
                    faces.append(SIMD3(v0, v1, v2))
                    faces.append(SIMD3(v0, v2, v3))
                } else {
                    faces.append(SIMD3(v0, v2, v1))
                    faces.append(SIMD3(v0, v3, v2))
                }
            }
        }
        return TriangleMesh(vertices: vertices, faces: faces)
    }
}
