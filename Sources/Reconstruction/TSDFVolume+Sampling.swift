import Geometry

/// A reading of a volume as it stands: the blocks' table and the voxels' arrays held as
/// values, so that a registration's millions of reads at points go through no class property
/// (each of which Swift checks for exclusive access at run time). Taken once per
/// registration or check; the volume fused after it is not seen.
struct TSDFSampler {
    let voxelSize: Double
    let truncation: Double
    let fusesColor: Bool
    private let blockIndex: BlockTable
    private let cells: [SIMD2<Float>]
    private let chromas: [Float]

    init(_ volume: TSDFVolume) {
        voxelSize = volume.voxelSize
        truncation = volume.truncation
        fusesColor = volume.fusesColor
        blockIndex = volume.blockIndex
        cells = volume.cells
        chromas = volume.chromas
    }

    /// The eight voxels around `p` (their places in the voxel arrays, corner `n` at offset
    /// (n & 1, n >> 1 & 1, n >> 2)) and where `p` lies between them (0...1 each way); nil where
    /// any of them was never seen, or far outside any volume (or not a number), where no index
    /// may overflow. The one walk every reading of the volume at a point makes.
    @inline(__always)
    private func corners(at p: SIMD3<Double>) -> (voxels: SIMD8<Int>, fraction: SIMD3<Double>)? {
        let g = p / voxelSize
        let base = g.rounded(.down)
        guard (base.x.magnitude < 1e9) && (base.y.magnitude < 1e9) && (base.z.magnitude < 1e9) else { return nil }
        // Within ±1e9 every whole number converts exactly.
        let bx = Int32(base.x), by = Int32(base.y), bz = Int32(base.z)
        // Seven in eight points along each axis have all eight corners in one block: one
        // lookup, the corners at fixed offsets from the first.
        let local = SIMD3<Int32>(bx, by, bz) & 7
        if local.x < 7, local.y < 7, local.z < 7 {
            guard let index = blockIndex[SIMD3(bx, by, bz) &>> 3] else { return nil }
            let first = Int(index) * TSDFVolume.blockVoxels + Int(local.x) + 8 * Int(local.y) + 64 * Int(local.z)
            let voxels = SIMD8<Int>(repeating: first) &+ Self.sameBlockOffsets
            for corner in 0..<8 {
                guard cells[voxels[corner]].y > 0 else { return nil }
            }
            return (voxels, g - base)
        }
        var voxels = SIMD8<Int>()
        var lastBlock = SIMD3<Int32>(repeating: .min), lastIndex: Int32 = -1
        for corner in 0..<8 {
            let v = SIMD3<Int32>(bx + Int32(corner & 1), by + Int32(corner >> 1 & 1), bz + Int32(corner >> 2))
            let blockCoord = v &>> 3
            if blockCoord != lastBlock {
                guard let index = blockIndex[blockCoord] else { return nil }
                lastBlock = blockCoord
                lastIndex = index
            }
            let local = v & 7
            let n = Int(lastIndex) * TSDFVolume.blockVoxels + Int(local.x) + 8 * Int(local.y) + 64 * Int(local.z)
            guard cells[n].y > 0 else { return nil }
            voxels[corner] = n
        }
        return (voxels, g - base)
    }

    /// The corners' places from the first's within one block: x, then y, then z.
    private static let sameBlockOffsets = SIMD8<Int>(0, 1, 8, 9, 64, 65, 72, 73)

    /// The eight corners' distances (units of the truncation), nil where one lies in the
    /// truncated band's far end (no surface within reach).
    @inline(__always)
    private func cornerDistances(_ voxels: SIMD8<Int>) -> SIMD8<Double>? {
        var values = SIMD8<Double>()
        for corner in 0..<8 {
            let d = Double(cells[voxels[corner]].x)
            guard abs(d) < 0.99 else { return nil }
            values[corner] = d
        }
        return values
    }

    /// The eight corners' chroma, nil where the volume fuses no colour or one of them never
    /// took a colour (depth seen outside the colour picture).
    @inline(__always)
    private func cornerChromas(_ voxels: SIMD8<Int>) -> SIMD8<Double>? {
        guard fusesColor else { return nil }
        var values = SIMD8<Double>()
        for corner in 0..<8 {
            let c = Double(chromas[voxels[corner]])
            guard c.isFinite else { return nil }
            values[corner] = c
        }
        return values
    }

    /// The fused signed distance at `p` (metres, positive in front of the surface) and its
    /// gradient, interpolated trilinearly between the eight voxels around it; nil where any of
    /// them was never seen or lies in the truncated band's far end (no surface within reach).
    func signedDistance(at p: SIMD3<Double>) -> (distance: Double, gradient: SIMD3<Double>)? {
        guard let (voxels, f) = corners(at: p), let values = cornerDistances(voxels) else { return nil }
        let distance = TSDFVolume.trilinear(values, f)
        return (distance.value * truncation, distance.gradient * (truncation / voxelSize))
    }

    /// The fused colour's chroma at `p`, (red − blue) / (red + green + blue), which light
    /// falling brighter or dimmer on the same print does not change, and its gradient per
    /// metre, interpolated trilinearly between the eight voxels around it; nil where the volume
    /// fuses no colour or any of them was never seen or never took a colour.
    func chroma(at p: SIMD3<Double>) -> (value: Double, gradient: SIMD3<Double>)? {
        guard let (voxels, f) = corners(at: p), let values = cornerChromas(voxels) else { return nil }
        let chroma = TSDFVolume.trilinear(values, f)
        return (chroma.value, chroma.gradient / voxelSize)
    }

    /// `signedDistance(at:)` and `chroma(at:)` at once, from one walk over the eight voxels
    /// around `p` (the registration asks both of every point); the chroma is nil where the
    /// volume fuses no colour or a voxel around `p` never took one.
    func surfaceAndChroma(
        at p: SIMD3<Double>
    ) -> (distance: Double, gradient: SIMD3<Double>, chroma: (value: Double, gradient: SIMD3<Double>)?)? {
        guard let (voxels, f) = corners(at: p), let values = cornerDistances(voxels) else { return nil }
        let distance = TSDFVolume.trilinear(values, f)
        let chroma = cornerChromas(voxels).map { TSDFVolume.trilinear($0, f) }
        return (distance.value * truncation, distance.gradient * (truncation / voxelSize), chroma.map { ($0.value, $0.gradient / voxelSize) })
    }
}

extension TSDFVolume {
    /// The volume as it stands, for many reads (`TSDFSampler`).
    var sampler: TSDFSampler { TSDFSampler(self) }

    /// `TSDFSampler.signedDistance(at:)` for a single read.
    func signedDistance(at p: SIMD3<Double>) -> (distance: Double, gradient: SIMD3<Double>)? { sampler.signedDistance(at: p) }

    /// `TSDFSampler.chroma(at:)` for a single read.
    func chroma(at p: SIMD3<Double>) -> (value: Double, gradient: SIMD3<Double>)? { sampler.chroma(at: p) }

    /// The trilinear value of the eight corners at `f` (0...1 each way) and its derivative per
    /// voxel along each axis.
    @inline(__always)
    static func trilinear(_ values: SIMD8<Double>, _ f: SIMD3<Double>) -> (value: Double, gradient: SIMD3<Double>) {
        let (x, y, z) = (f.x, f.y, f.z)
        func lerp(_ a: Double, _ b: Double, _ t: Double) -> Double { a + (b - a) * t }
        let c00 = lerp(values[0], values[1], x), c10 = lerp(values[2], values[3], x)
        let c01 = lerp(values[4], values[5], x), c11 = lerp(values[6], values[7], x)
        let c0 = lerp(c00, c10, y), c1 = lerp(c01, c11, y)
        let dz = c1 - c0
        let dy = lerp(c10 - c00, c11 - c01, z)
        let dx = lerp(lerp(values[1] - values[0], values[3] - values[2], y), lerp(values[5] - values[4], values[7] - values[6], y), z)
        return (lerp(c0, c1, z), SIMD3(dx, dy, dz))
    }
}

extension TSDFVolume {
    /// (red − blue) / (red + green + blue) of a colour (0...255 a channel); 0 for one too dark
    /// to tell (a sum under 30: in shadow a level of noise swings the ratio wildly).
    @inline(__always)
    static func chroma(_ c: SIMD3<Float>) -> Double { Double(chromaF(c)) }

    @inline(__always)
    static func chromaF(_ c: SIMD3<Float>) -> Float {
        let sum = c.x + c.y + c.z
        return sum >= 30 ? (c.x - c.z) / sum : 0
    }
}
