import Geometry
import Testing

@testable import Reconstruction

/// The volume's block table answers as a dictionary would, through its growth, for blocks
/// clustered as a head's are and for coordinates at the ends of their range.
@Suite struct BlockTableTests {
    @Test func answersAsADictionaryWould() {
        var random = SplitMix64(seed: 1234)
        var table = BlockTable()
        var truth: [SIMD3<Int32>: Int32] = [:]
        for n in 0..<5_000 {
            // Mostly a shell of neighbouring blocks, some far away or at the extremes.
            let key: SIMD3<Int32> =
                n % 50 == 0
                ? SIMD3(Int32.random(in: .min ... .max, using: &random), .max, .min)
                : SIMD3(
                    Int32.random(in: -20...20, using: &random), Int32.random(in: -20...20, using: &random), Int32.random(in: -5...30, using: &random))
            guard truth[key] == nil else { continue }
            let value = Int32(truth.count)
            #expect(table[key] == nil)
            table.insert(key, value)
            truth[key] = value
        }
        #expect(table.count == truth.count)
        for (key, value) in truth { #expect(table[key] == value) }
        for _ in 0..<2_000 {
            let key = SIMD3(
                Int32.random(in: -40...40, using: &random), Int32.random(in: -40...40, using: &random), Int32.random(in: 31...60, using: &random))
            #expect(table[key] == nil)
        }
    }
}
