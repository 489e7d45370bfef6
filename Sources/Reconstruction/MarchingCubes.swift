import Geometry

extension TSDFVolume {
    /// The zero level set as a triangle mesh, by marching cubes over the allocated blocks.
    ///
    /// Every crossed voxel edge gets one vertex, shared by all cells around that edge, so the
    /// mesh is welded (no duplicate vertices) and closed wherever the volume is observed.
    /// Cells with a corner seen fewer than `minimumWeight` times are left open. Vertices carry
    /// the fused colour when the volume fuses colour. (This replaced surface nets, whose
    /// per-cell averaging smoothed a little: same mean distance on the simulated scans, p95
    /// 0.74 against 0.77 mm, at four times the meshing time.)
    public func extractSurface(minimumWeight: Float = 2) -> TriangleMesh {
        let side = Self.side
        let table = MarchingCubesTable.triangles
        let edges = MarchingCubesTable.edges, edgeAxes = MarchingCubesTable.edgeAxes
        let offsets: [SIMD3<Int32>] = (0..<8).map { (n: Int) -> SIMD3<Int32> in
            SIMD3<Int32>(Int32(n & 1), Int32((n >> 1) & 1), Int32((n >> 2) & 1))
        }
        let axisSteps = [SIMD3<Double>(1, 0, 0), SIMD3<Double>(0, 1, 0), SIMD3<Double>(0, 0, 1)]
        var vertices: [SIMD3<Double>] = [], vertexColors: [SIMD3<UInt8>] = [], faces: [SIMD3<Int32>] = []
        var edgeVertex: [Int64: Int32] = [:]
        var values = [Float](repeating: 0, count: 8), voxels = [Int](repeating: 0, count: 8)
        var neighbours = [Int](repeating: -1, count: 8)
        var cellEdges = [Int32](repeating: -1, count: 12)

        for (b, coord) in blockCoords.enumerated() {
            // Cells on the block's upper faces reach into the seven neighbours above.
            for n in 0..<8 {
                neighbours[n] = n == 0 ? b * Self.blockVoxels : blockIndex[coord &+ offsets[n]].map { Int($0) * Self.blockVoxels } ?? -1
            }
            for lz in 0..<side {
                for ly in 0..<side {
                    cell: for lx in 0..<side {
                        var inside = 0
                        for n in 0..<8 {
                            let x = lx + (n & 1), y = ly + (n >> 1 & 1), z = lz + (n >> 2 & 1)
                            let base = neighbours[x >> 3 | (y >> 3) << 1 | (z >> 3) << 2]
                            guard base >= 0 else { continue cell }
                            let j = base + ((z & 7) * side + (y & 7)) * side + (x & 7)
                            let voxel = cells[j]
                            guard voxel.y >= minimumWeight else { continue cell }
                            values[n] = voxel.x
                            voxels[n] = j
                            if voxel.x < 0 { inside |= 1 << n }
                        }
                        let triangles = table[inside]
                        guard !triangles.isEmpty else { continue }
                        let g = coord &* 8 &+ SIMD3(Int32(lx), Int32(ly), Int32(lz))
                        for i in 0..<12 { cellEdges[i] = -1 }
                        for e in triangles where cellEdges[e] < 0 {
                            let (a, c) = edges[e]
                            let start = g &+ offsets[a]
                            let key = Self.edgeKey(start, axis: edgeAxes[e])
                            if let known = edgeVertex[key] {
                                cellEdges[e] = known
                                continue
                            }
                            let t = values[a] / (values[a] - values[c])
                            let index = Int32(vertices.count)
                            vertices.append((SIMD3<Double>(start) + Double(t) * axisSteps[edgeAxes[e]]) * voxelSize)
                            if fusesColor {
                                // A voxel that never took a colour (its depth seen outside the colour
                                // picture) gives the edge none: the other end's colour stands.
                                let (seenA, seenC) = (colorWeights[voxels[a]] > 0, colorWeights[voxels[c]] > 0)
                                let mixed =
                                    seenA && seenC
                                    ? colors[voxels[a]] * (1 - t) + colors[voxels[c]] * t : seenA ? colors[voxels[a]] : colors[voxels[c]]
                                let clamped = mixed.rounded(.toNearestOrEven).clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 255))
                                vertexColors.append(SIMD3<UInt8>(clamped))
                            }
                            edgeVertex[key] = index
                            cellEdges[e] = index
                        }
                        for t in stride(from: 0, to: triangles.count, by: 3) {
                            faces.append(SIMD3(cellEdges[triangles[t]], cellEdges[triangles[t + 1]], cellEdges[triangles[t + 2]]))
                        }
                    }
                }
            }
        }
        return TriangleMesh(vertices: vertices, faces: faces, colors: vertexColors)
    }

    /// One key per voxel edge: its lower end (20 bits a coordinate, so unique within a
    /// kilometre at 1 mm voxels) and its axis.
    @inline(__always)
    static func edgeKey(_ g: SIMD3<Int32>, axis: Int) -> Int64 {
        let x = Int64(g.x) & 0xFFFFF, y = Int64(g.y) & 0xFFFFF, z = Int64(g.z) & 0xFFFFF
        return (x << 40 | y << 20 | z) << 2 | Int64(axis)
    }
}
