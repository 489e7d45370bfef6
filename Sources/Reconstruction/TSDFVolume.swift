import Geometry
import Imaging

/// The part of space that belongs to the head: a sphere around the marker cap.
///
/// Depth outside it (the parent's body, the cot, the wall) is never fused, and hands that
/// come closer than the sphere's edge are cut off at it.
public struct HeadRegion: Sendable, Hashable {
    /// Centre, map frame, metres.
    public var centre: SIMD3<Double>
    /// Radius, metres.
    public var radius: Double

    /// A region from its sphere.
    public init(centre: SIMD3<Double>, radius: Double) {
        self.centre = centre
        self.radius = radius
    }

    /// Whether a map-frame point lies inside.
    @inlinable
    public func contains(_ p: SIMD3<Double>) -> Bool {
        let d = p - centre
        return dot(d, d) <= radius * radius
    }
}

/// A truncated signed distance volume in sparse 8³ voxel blocks: memory grows with the
/// observed surface (a head is a few thousand blocks at 1 mm), not with the bounding box.
public final class TSDFVolume {
    /// Edge of one voxel, metres.
    public let voxelSize: Double
    /// Distance beyond which signed distances are clamped, metres.
    public let truncation: Double
    /// Cap on a voxel's accumulated weight, so that late frames still count.
    public var maximumWeight: Float = 64

    static let side = 8
    static let blockVoxels = 512

    private var blockIndex: [SIMD3<Int32>: Int32] = [:]
    /// Block coordinates (voxel index / 8), in allocation order.
    private(set) var blockCoords: [SIMD3<Int32>] = []
    private var distances: [Float] = []
    private var weights: [Float] = []
    private var stamps: [Int32] = []
    private var stamp: Int32 = 0
    private var visible: [Int32] = []
    private var mask: [Bool] = []

    /// An empty volume.
    public init(voxelSize: Double = 0.001, truncation: Double = 0.004) {
        precondition(voxelSize > 0 && truncation >= voxelSize, "truncation must span at least one voxel")
        self.voxelSize = voxelSize
        self.truncation = truncation
    }

    /// Allocated blocks.
    public var blockCount: Int { blockCoords.count }
    /// Bytes held by voxel data.
    public var memoryBytes: Int { blockCoords.count * Self.blockVoxels * 8 }

    private func block(_ coord: SIMD3<Int32>) -> Int32 {
        if let index = blockIndex[coord] { return index }
        let index = Int32(blockCoords.count)
        blockIndex[coord] = index
        blockCoords.append(coord)
        distances.append(contentsOf: repeatElement(1, count: Self.blockVoxels))
        weights.append(contentsOf: repeatElement(0, count: Self.blockVoxels))
        stamps.append(-1)
        return index
    }

    /// Fuses one depth map seen from `worldFromCamera`; only depth inside `region` counts.
    public func integrate(depth: DepthImage, intrinsics k: CameraIntrinsics, worldFromCamera pose: RigidTransform, region: HeadRegion) {
        stamp += 1
        visible.removeAll(keepingCapacity: true)
        let width = depth.width, height = depth.height
        if mask.count != width * height { mask = Array(repeating: false, count: width * height) }
        let blockSize = voxelSize * Double(Self.side)
        let t = truncation
        let r = pose.rotation.columns
        // Pass 1: segment, and allocate the blocks within the truncation band of the surface.
        depth.pixels.withUnsafeBufferPointer { d in
            for y in 0..<height {
                let ry = (Double(y) - k.cy) / k.fy
                for x in 0..<width {
                    let i = y * width + x
                    let z = Double(d[i])
                    guard z.isFinite, z > 0 else { mask[i] = false; continue }
                    let c = SIMD3((Double(x) - k.cx) / k.fx * z, ry * z, z)
                    let p = r.0 * c.x + r.1 * c.y + r.2 * c.z + pose.translation
                    let inside = region.contains(p)
                    mask[i] = inside
                    // Every other pixel is enough to touch every block (pixels are < 1 mm apart).
                    guard inside, x & 1 == 0, y & 1 == 0 else { continue }
                    let low = ((p - t) / blockSize).rounded(.down), high = ((p + t) / blockSize).rounded(.down)
                    for bz in Int32(low.z)...Int32(high.z) {
                        for by in Int32(low.y)...Int32(high.y) {
                            for bx in Int32(low.x)...Int32(high.x) {
                                let b = block(SIMD3(bx, by, bz))
                                if stamps[Int(b)] != stamp {
                                    stamps[Int(b)] = stamp
                                    visible.append(b)
                                }
                            }
                        }
                    }
                }
            }
        }
        // Pass 2: projective signed distance for every voxel of the touched blocks.
        let cameraFromWorld = pose.inverse
        let rc = cameraFromWorld.rotation.columns
        let step = rc.0 * voxelSize
        let truncF = Float(t), maxW = maximumWeight
        let fx = k.fx, fy = k.fy, cx = k.cx, cy = k.cy
        depth.pixels.withUnsafeBufferPointer { d in
            mask.withUnsafeBufferPointer { m in
                distances.withUnsafeMutableBufferPointer { dist in
                    weights.withUnsafeMutableBufferPointer { wgt in
                        for b in visible {
                            let origin = SIMD3<Double>(blockCoords[Int(b)]) * Double(Self.side)
                            let base = Int(b) * Self.blockVoxels
                            for lz in 0..<Self.side {
                                for ly in 0..<Self.side {
                                    let w0 = SIMD3(origin.x, origin.y + Double(ly), origin.z + Double(lz)) * voxelSize
                                    var c = cameraFromWorld.apply(w0)
                                    let row = base + (lz * Self.side + ly) * Self.side
                                    for lx in 0..<Self.side {
                                        defer { c += step }
                                        guard c.z > 0 else { continue }
                                        let u = Int((fx * c.x / c.z + cx).rounded())
                                        let v = Int((fy * c.y / c.z + cy).rounded())
                                        guard u >= 0, v >= 0, u < width, v < height else { continue }
                                        let pixel = v * width + u
                                        guard m[pixel] else { continue }
                                        let sdf = Float(Double(d[pixel]) - c.z)
                                        guard sdf > -truncF else { continue }
                                        let value = min(1, sdf / truncF)
                                        let j = row + lx
                                        let w = wgt[j]
                                        dist[j] = (dist[j] * w + value) / (w + 1)
                                        wgt[j] = min(maxW, w + 1)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The zero level set as a triangle mesh, by surface nets: one vertex per cell that the
    /// surface crosses (the mean of its edge crossings), one quad per crossed voxel edge.
    /// Cells with a corner seen fewer than `minimumWeight` times are left open.
    /// (Surface nets rather than marching cubes: no 256-case table to get wrong, fewer and
    /// better-shaped triangles, and the same accuracy on smooth surfaces at this resolution.)
    public func extractSurface(minimumWeight: Float = 2) -> TriangleMesh {
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
