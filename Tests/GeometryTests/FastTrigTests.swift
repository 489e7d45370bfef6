import Foundation
import Geometry
import Testing

/// The texture functions stay within their stated error of libm's over the ranges the
/// renderer feeds them (wall coordinates times 9, rib angles times 180).
struct FastTrigTests {
    @Test func sineIsWithinElevenTenThousandths() {
        var rng = SplitMix64(seed: 11)
        var worst = 0.0
        for _ in 0..<100_000 {
            let x = rng.uniform(-600...600)
            worst = max(worst, abs(FastTrig.sin(x) - sin(x)))
        }
        #expect(worst < 0.0011)
        #expect(worst > 0)  // it is an approximation; an exact copy would not need this type
    }

    @Test func arctangentIsWithinTwelveMicroradiansInEveryQuadrant() {
        var rng = SplitMix64(seed: 12)
        var worst = 0.0
        for _ in 0..<100_000 {
            let y = rng.uniform(-1...1), x = rng.uniform(-1...1)
            worst = max(worst, abs(FastTrig.atan2(y, x) - atan2(y, x)))
        }
        #expect(worst < 1.2e-5)
        for (y, x) in [(0.0, 1.0), (1, 0), (0, -1), (-1, 0), (1, 1), (-1, -1)] {
            #expect(abs(FastTrig.atan2(y, x) - atan2(y, x)) < 1.2e-5)
        }
        #expect(FastTrig.atan2(0, 0) == 0)
    }

    @Test func floorRoundsDownOnBothSides() {
        for x in [-2.5, -2.0, -0.1, 0, 0.1, 2.0, 2.9, -1e9, 1e9 + 0.5] {
            #expect(FastTrig.floor(x) == Int(x.rounded(.down)))
        }
    }
}
