import Geometry
import Imaging

/// The part of space that belongs to the head: a sphere around the marker cap.
///
/// Depth outside it (the parent's body, the cot, the wall) is never fused, and hands that
/// come closer than the sphere's edge are cut off at it.
public struct FusionRegion: Sendable, Hashable {
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
    /// Threads that update the voxels of a frame's blocks (each block is one thread's); the
    /// volume is the same for any number.
    public var threads = 1

    static let side = 8
    static let blockVoxels = 512

    private(set) var blockIndex = BlockTable()
    /// Block coordinates (voxel index / 8), in allocation order.
    private(set) var blockCoords: [SIMD3<Int32>] = []
    /// Per voxel its truncated signed distance, in units of the truncation (−1...1), and its
    /// weight, side by side: a reading at a point takes both of its eight voxels, and kept in
    /// two arrays they cost twice the cache lines (the reads were a third of a scan's time).
    private(set) var cells: [SIMD2<Float>] = []
    /// Mean colour per voxel (0...255 per channel), when colour is fused.
    private(set) var colors: [SIMD3<Float>] = []
    /// How many colour pictures each voxel's colour averages: a voxel whose depth was seen
    /// outside the colour picture takes no colour from that frame.
    private(set) var colorWeights: [Float] = []
    /// Each voxel's colour as a chroma (`chroma(_:)`), kept with it: the registration reads
    /// eight of them for every point it matches, many times a frame. NaN until the voxel took a
    /// colour: it has none to match, not the chroma of black.
    private(set) var chromas: [Float] = []
    /// Whether voxels also average the colour seen at them.
    public let fusesColor: Bool
    private var stamps: [Int32] = []
    private var stamp: Int32 = 0
    private var visible: [Int32] = []
    /// The frame's depth where it lies inside the region, NaN elsewhere: the voxels' pass reads
    /// one array where it read a mask and the depth.
    private var inside: [Float] = []

    /// An empty volume; with `colors`, each voxel also averages the colour of the pixels it
    /// projects to.
    public init(voxelSize: Double = 0.001, truncation: Double = 0.004, colors: Bool = false) {
        precondition(voxelSize > 0 && truncation >= voxelSize, "truncation must span at least one voxel")
        self.voxelSize = voxelSize
        self.truncation = truncation
        fusesColor = colors
    }

    /// Allocated blocks.
    public var blockCount: Int { blockCoords.count }
    /// Bytes held by voxel data.
    public var memoryBytes: Int { blockCoords.count * Self.blockVoxels * (fusesColor ? 8 + MemoryLayout<SIMD3<Float>>.stride + 8 : 8) }

    private func block(_ coord: SIMD3<Int32>) -> Int32 {
        if let index = blockIndex[coord] { return index }
        let index = Int32(blockCoords.count)
        blockIndex.insert(coord, index)
        blockCoords.append(coord)
        cells.append(contentsOf: repeatElement(SIMD2(1, 0), count: Self.blockVoxels))
        if fusesColor {
            colors.append(contentsOf: repeatElement(.zero, count: Self.blockVoxels))
            colorWeights.append(contentsOf: repeatElement(0, count: Self.blockVoxels))
            chromas.append(contentsOf: repeatElement(.nan, count: Self.blockVoxels))
        }
        stamps.append(-1)
        return index
    }

    /// Fuses one depth map seen from `worldFromCamera`; only depth inside `region` counts.
    /// With a colour picture (same camera frame, its own intrinsics) and a volume that fuses
    /// colour, the voxels updated also average its colour.
    public func integrate(
        depth: DepthImage, intrinsics k: CameraIntrinsics, worldFromCamera pose: RigidTransform, region: FusionRegion,
        color: RGBAImage? = nil, colorIntrinsics: CameraIntrinsics? = nil
    ) {
        stamp += 1
        visible.removeAll(keepingCapacity: true)
        let width = depth.width, height = depth.height
        if inside.count != width * height { inside = Array(repeating: .nan, count: width * height) }
        let blockSize = voxelSize * Double(Self.side)
        let t = truncation
        let r = pose.rotation.columns
        // Pass 1: segment, and list the blocks within the truncation band of the surface, rows
        // split among the threads; the blocks are then allocated in row order, as one thread
        // would, so the volume is the same for any thread count.
        let chunks = min(height, max(1, threads) * 4)
        let rowsPerChunk = (height + max(1, chunks) - 1) / max(1, chunks)
        let touched = SlotBuffer<[SIMD3<Int32>]>(count: chunks, repeating: [])
        depth.pixels.withUnsafeBufferPointer { d in
            inside.withUnsafeMutableBufferPointer { m in
                parallelFor(chunks, threads: threads) { chunk in
                    // Each chunk writes only its own rows of the region's depth.
                    var ranges: [SIMD3<Int32>] = []
                    var lastLow = SIMD3<Int32>(repeating: .max), lastHigh = SIMD3<Int32>(repeating: .max)
                    for y in min(height, chunk * rowsPerChunk)..<min(height, (chunk + 1) * rowsPerChunk) {
                        let ry = (Double(y) - k.cy) / k.fy
                        for x in 0..<width {
                            let i = y * width + x
                            let z = Double(d[i])
                            guard z.isFinite, z > 0 else { m[i] = .nan; continue }
                            let c = SIMD3((Double(x) - k.cx) / k.fx * z, ry * z, z)
                            let p = r.0 * c.x + r.1 * c.y + r.2 * c.z + pose.translation
                            let inside = region.contains(p)
                            m[i] = inside ? d[i] : .nan
                            // Every other pixel is enough to touch every block (pixels are < 1 mm apart).
                            guard inside, x & 1 == 0, y & 1 == 0 else { continue }
                            let low = Self.blockOf((p - t) / blockSize), high = Self.blockOf((p + t) / blockSize)
                            // Neighbouring pixels mostly touch the same blocks: skip the repeats.
                            guard low != lastLow || high != lastHigh else { continue }
                            lastLow = low
                            lastHigh = high
                            ranges.append(low)
                            ranges.append(high)
                        }
                    }
                    touched[chunk] = ranges
                }
            }
        }
        for chunk in 0..<chunks {
            let ranges = touched[chunk]
            for n in stride(from: 0, to: ranges.count, by: 2) {
                let low = ranges[n], high = ranges[n + 1]
                for bz in low.z...high.z {
                    for by in low.y...high.y {
                        for bx in low.x...high.x {
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
        // Pass 2: projective signed distance for every voxel of the touched blocks.
        let cameraFromWorld = pose.inverse
        let rc = cameraFromWorld.rotation.columns
        let step = rc.0 * voxelSize
        let truncF = Float(t), maxW = maximumWeight
        let fx = k.fx, fy = k.fy, cx = k.cx, cy = k.cy
        let picture = fusesColor ? color : nil
        let kc = colorIntrinsics ?? k
        let colorWidth = picture?.width ?? 0, colorHeight = picture?.height ?? 0
        // A colour picture from the depth's own camera (TrueDepth's registered frames) is read
        // at the depth's pixel, without projecting again (the same pixel but at a pixel's very edge).
        let sameCamera = kc == k && colorWidth == width && colorHeight == height
        let empty: [RGBA8] = []
        let visibleBlocks = visible, coords = blockCoords
        (picture?.pixels ?? empty).withUnsafeBufferPointer { rgb in
            inside.withUnsafeBufferPointer { m in
                cells.withUnsafeMutableBufferPointer { cell in
                    colors.withUnsafeMutableBufferPointer { col in
                        colorWeights.withUnsafeMutableBufferPointer { colW in
                            chromas.withUnsafeMutableBufferPointer { chr in
                                parallelFor(visibleBlocks.count, threads: threads) { n in
                                    let b = visibleBlocks[n]
                                    let origin = SIMD3<Double>(coords[Int(b)]) * Double(Self.side)
                                    let base = Int(b) * Self.blockVoxels
                                    for lz in 0..<Self.side {
                                        for ly in 0..<Self.side {
                                            let w0 = SIMD3(origin.x, origin.y + Double(ly), origin.z + Double(lz)) * voxelSize
                                            var c = cameraFromWorld.apply(w0)
                                            let row = base + (lz * Self.side + ly) * Self.side
                                            for lx in 0..<Self.side {
                                                defer { c += step }
                                                guard c.z > 0 else { continue }
                                                let iz = 1 / c.z
                                                // Nearest pixel; the +0.5 and truncation round, as
                                                // both are non-negative after the bounds check.
                                                let uf = fx * c.x * iz + cx + 0.5, vf = fy * c.y * iz + cy + 0.5
                                                guard uf >= 0, vf >= 0, uf < Double(width), vf < Double(height) else { continue }
                                                let u = Int(uf), v = Int(vf)
                                                let pixel = v * width + u
                                                // NaN outside the region: no comparison holds.
                                                let sdf = Float(Double(m[pixel]) - c.z)
                                                guard sdf > -truncF else { continue }
                                                let value = min(1, sdf / truncF)
                                                let j = row + lx
                                                let old = cell[j], w = old.y
                                                cell[j] = SIMD2((old.x * w + value) / (w + 1), min(maxW, w + 1))
                                                // A voxel takes the colour where the picture shows it, weighed
                                                // as its distance is (the same weight where both are seen).
                                                guard colorWidth > 0 else { continue }
                                                let p: RGBA8
                                                if sameCamera {
                                                    p = rgb[pixel]
                                                } else {
                                                    let uc = Int((kc.fx * c.x / c.z + kc.cx).rounded())
                                                    let vc = Int((kc.fy * c.y / c.z + kc.cy).rounded())
                                                    guard uc >= 0, vc >= 0, uc < colorWidth, vc < colorHeight else { continue }
                                                    p = rgb[vc * colorWidth + uc]
                                                }
                                                let cw = colW[j]
                                                let mean = (col[j] * cw + SIMD3(Float(p.r), Float(p.g), Float(p.b))) / (cw + 1)
                                                col[j] = mean
                                                colW[j] = min(maxW, cw + 1)
                                                chr[j] = Self.chromaF(mean)
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The block a point (in units of blocks, within the fused sphere: far from overflowing)
    /// lies in, one axis at a time (the generic SIMD conversion went through a slow path).
    @inline(__always)
    private static func blockOf(_ b: SIMD3<Double>) -> SIMD3<Int32> {
        SIMD3(Int32(b.x.rounded(.down)), Int32(b.y.rounded(.down)), Int32(b.z.rounded(.down)))
    }

    /// Sets every voxel of the blocks that meet the box `low...high` from a signed distance
    /// function (metres, positive outside), truncated, with the given weight: an analytic
    /// shape in place of fused depth, for checking the mesher against exact geometry.
    /// With `colour` (0...255 per channel) a volume that fuses colour takes it too.
    func fill(
        from low: SIMD3<Double>, to high: SIMD3<Double>, weight: Float, signedDistance: (SIMD3<Double>) -> Double,
        colour: ((SIMD3<Double>) -> SIMD3<Float>)? = nil
    ) {
        let blockSize = voxelSize * Double(Self.side)
        let a = SIMD3<Int32>((low / blockSize).rounded(.down)), b = SIMD3<Int32>((high / blockSize).rounded(.down))
        for bz in a.z...b.z {
            for by in a.y...b.y {
                for bx in a.x...b.x {
                    let coord = SIMD3(bx, by, bz)
                    let base = Int(block(coord)) * Self.blockVoxels
                    for n in 0..<Self.blockVoxels {
                        let local = SIMD3<Int32>(Int32(n % 8), Int32(n / 8 % 8), Int32(n / 64))
                        let p = SIMD3<Double>(coord &* 8 &+ local) * voxelSize
                        cells[base + n] = SIMD2(Float(max(-1, min(1, signedDistance(p) / truncation))), weight)
                        if fusesColor, let colour {
                            colors[base + n] = colour(p)
                            colorWeights[base + n] = weight
                            chromas[base + n] = Self.chromaF(colour(p))
                        }
                    }
                }
            }
        }
    }
}
