import Geometry
import Testing

@testable import Reconstruction

/// A volume read at points: within a block, where all eight voxels around a point lie in one
/// block, and across blocks' faces, edges and corners, the reading is the trilinear one, which
/// on a linear field is the field itself.
@Suite struct TSDFSamplerTests {
    /// A tilted plane's signed distance, metres: linear, so trilinear interpolation is exact.
    static let normal = normalized(SIMD3(0.3, -0.5, 0.81))
    static func plane(_ p: SIMD3<Double>) -> Double { dot(normal, p) - 0.0004 }

    static func volume() -> TSDFVolume {
        let volume = TSDFVolume(voxelSize: 0.001, truncation: 0.04, colors: true)
        volume.fill(from: SIMD3(repeating: -0.012), to: SIMD3(repeating: 0.012), weight: 1, signedDistance: plane) { p in
            // A chroma that changes linearly too: red up along x.
            SIMD3(Float(100 + 2000 * p.x), 50, 100)
        }
        return volume
    }

    @Test(arguments: [0.1, 0.5, 6.3, 6.9, 7.0, 7.4, 7.99, 8.0, 8.5, 14.6, -0.2, -0.9, -7.6, -8.3])
    func readsTheFieldWithinAndAcrossBlocks(_ voxel: Double) throws {
        let sampler = Self.volume().sampler
        // Along each axis in turn at `voxel`, the other two inside a block or on its last voxel.
        for axis in 0..<3 {
            for other in [2.3, 7.5] {
                var g = SIMD3(repeating: other)
                g[axis] = voxel
                let p = g * 0.001
                let (d, gradient) = try #require(sampler.signedDistance(at: p))
                #expect(abs(d - Self.plane(p)) < 1e-6, "at \(g) voxels")
                #expect(length(gradient - Self.normal) < 1e-4)
                let (c, _) = try #require(sampler.chroma(at: p))
                let expected = Double(TSDFVolume.chromaF(SIMD3(Float(100 + 2000 * p.x), 50, 100)))
                // Chroma is not linear in the colour: only close between voxels.
                #expect(abs(c - expected) < 2e-3, "at \(g) voxels")
                let both = try #require(sampler.surfaceAndChroma(at: p))
                #expect(both.distance == d && both.chroma?.value == c)
            }
        }
    }

    @Test func aPointBesideAnUnseenBlockHasNoReading() {
        let sampler = Self.volume().sampler
        // The filled box ends at the block boundary nearest 0.012 m (block 1 spans 8-15 voxels).
        #expect(sampler.signedDistance(at: SIMD3(15.5, 2, 2) * 0.001) == nil, "a corner in block 2, never seen")
        #expect(sampler.signedDistance(at: SIMD3(14.5, 2, 2) * 0.001) != nil)
    }
}

/// The compass search climbs to a smooth score's top within its smallest step, and leaves a
/// start that no step improves where it was.
@Suite struct StepSearchTests {
    static func distance(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double { ((a - b) * (a - b)).sum().squareRoot() }

    @Test func climbsToTheTop() {
        let top = SIMD2(0.37, -1.71)
        let (value, score) = StepSearch.climb(
            from: SIMD2<Double>.zero, directions: 2, size: 1, smallest: 1e-4, score: { -Self.distance($0, top) }
        ) { v, axis, step in
            var moved = v
            moved[axis] += step
            return moved
        }
        #expect(Self.distance(value, top) < 2e-4)
        #expect(score <= 0 && score > -2e-4)
    }

    @Test func aStartNoStepImprovesStays() {
        var scored = 0
        let (value, score) = StepSearch.climb(
            from: 5.0, directions: 1, size: 1, smallest: 0.25,
            score: { _ in
                scored += 1; return 0
            }
        ) { v, _, step in v + step }
        #expect(value == 5 && score == 0)
        // 1, 0.5 and 0.25, each tried both ways, and the start.
        #expect(scored == 7)
    }
}
