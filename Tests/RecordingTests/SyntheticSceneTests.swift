import Geometry
import Imaging
import Simulation
import Testing

@testable import Recording

@Suite struct SyntheticSceneTests {
    private let scene = SyntheticScene(seed: 4, width: 160, height: 120)

    @Test func framesAreDeterministic() {
        let a = scene.frame(at: 9), b = SyntheticScene(seed: 4, width: 160, height: 120).frame(at: 9)
        #expect(a.color == b.color)
        #expect(a.depth.pixels.map(\.bitPattern) == b.depth.pixels.map(\.bitPattern))
        let other = SyntheticScene(seed: 5, width: 160, height: 120).frame(at: 9)
        #expect(other.depth.pixels.map(\.bitPattern) != a.depth.pixels.map(\.bitPattern))
    }

    @Test func intrinsicsFollowTrueDepth() {
        let full = SyntheticScene(seed: 1)
        #expect(full.width == 640 && full.height == 480)
        #expect(full.fx == 590 && full.fy == 590 && full.cx == 320 && full.cy == 240)
        #expect(scene.fx == 147.5)
        #expect(scene.timestamp(at: 30) == 1)
    }

    @Test func depthLooksLikeTrueDepth() {
        let depth = scene.frame(at: 20).depth
        let valid = depth.pixels.filter { !$0.isNaN }
        let holes = Double(depth.count - valid.count) / Double(depth.count)
        #expect(holes > 0.02 && holes < 0.4, "NaN fraction \(holes)")
        #expect(valid.allSatisfy { $0 >= 0.18 && $0 <= 1.55 }, "range cut at 0.2–1.45 m before noise")
        #expect(valid.allSatisfy { HalfFloat.exactHalf(fromFloatBits: $0.bitPattern) != nil }, "Float16 values")
        let centre = depth[80, 60]
        #expect(centre >= 0.25 && centre <= 0.5, "head in the middle, got \(centre)")
        #expect(valid.contains { $0 > 0.8 }, "background behind the head")
    }

    @Test func cameraMovesBetweenFrames() {
        let first = scene.frame(at: 0).depth, later = scene.frame(at: 45).depth
        let changed = zip(first.pixels, later.pixels).filter { a, b in !a.isNaN && !b.isNaN && abs(a - b) > 0.01 }
        #expect(changed.count > 100)
    }

    @Test func colourIsTexturedNotFlat() {
        let luma = scene.frame(at: 3).color.grayscale().pixels.map(Double.init)
        let mean = luma.reduce(0, +) / Double(luma.count)
        let variance = luma.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(luma.count)
        #expect(mean > 60 && mean < 220)
        #expect(variance > 100)
        let steps = zip(luma.dropFirst(), luma).map { abs($0 - $1) }.reduce(0, +) / Double(luma.count)
        #expect(steps > 1, "neighbouring pixels should differ through texture and sensor noise")
    }
}

@Suite struct SeededRandomTests {
    @Test func sequencesRepeat() {
        var a = Xoshiro256(seed: 42), b = Xoshiro256(seed: 42), c = Xoshiro256(seed: 43)
        let first = (0..<8).map { _ in a.next() }
        #expect(first == (0..<8).map { _ in b.next() })
        #expect(first != (0..<8).map { _ in c.next() })
        var streams = (Xoshiro256(seed: 1, stream: 0), Xoshiro256(seed: 1, stream: 1))
        #expect(streams.0.next() != streams.1.next())
        var mix = SplitMix64(seed: 0)
        #expect(mix.next() == 0xE220_A839_7B1D_CDAF)  // the published SplitMix64 reference value
    }

    @Test func helpersStayInRange() {
        var rng = Xoshiro256(seed: 3)
        var sum: Float = 0, squares: Float = 0
        for _ in 0..<10_000 {
            #expect((0..<7).contains(rng.below(7)))
            let u = rng.unitFloat()
            #expect(u >= 0 && u < 1)
            let g = rng.gaussian()
            sum += g; squares += g * g
        }
        #expect(abs(sum / 10_000) < 0.05)
        #expect(abs(squares / 10_000 - 1) < 0.05)
    }
}
