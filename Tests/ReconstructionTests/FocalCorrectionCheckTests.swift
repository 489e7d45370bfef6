import Foundation
import Geometry
import Testing

@testable import Reconstruction

/// A focal estimate is applied only when the markers' printed size agrees: through the depth,
/// the corrected camera must not make them further from it than a depth unit can be off.
@Suite struct FocalCorrectionCheckTests {
    let check = FocalCorrectionCheck()

    @Test func aRightCorrectionOfAWrongFactoryValueIsApplied() {
        // Factory focal length 6 % long: lifted markers 5.7 % small; the estimate makes them right.
        #expect(check.refusal(scale: 1 / 1.06, sizeRatio: 1 / 1.06) == nil)
        // With the depth 1 % long as well: still within the tolerance.
        #expect(check.refusal(scale: 1 / 1.06, sizeRatio: 1.01 / 1.06) == nil)
        // Nothing known of the sizes: the estimate stands on its own.
        #expect(check.refusal(scale: 0.97, sizeRatio: nil) == nil)
    }

    @Test func aCorrectionThatBringsTheSizesCloserIsAppliedEvenBeyondTheTolerance() {
        // Factory 3 % long and depth 2.5 % short: 5.4 % small before, 2.2 % after.
        #expect(check.refusal(scale: 0.9676, sizeRatio: 0.975 / 1.03) == nil)
    }

    @Test func aCorrectionThatMakesTheMarkersWrongIsRefusedWithTheFigures() throws {
        // A real RealSense recording: estimate 0.890 on a depth reading 2.5 % long.
        let words = try #require(check.refusal(scale: 0.890, sizeRatio: 1.025))
        #expect(words.contains("11.0 % from the factory value, further than any phone's is off"))
        let moderate = try #require(check.refusal(scale: 0.9756, sizeRatio: 1.002))
        #expect(moderate.hasPrefix("with the estimated focal length (2.4 % off the factory value) the depth would make the markers 2.7 % larger"))
        #expect(moderate.contains("against 0.2 % with the factory value"))
        #expect(moderate.hasSuffix("so the factory focal length was kept"))
        #expect(check.refusal(scale: .nan, sizeRatio: 1) != nil)
    }

    @Test func theLiftedSizeIsTheMedianOverDepthLiftedObservations() {
        func observation(id: Int, side: Double, fromDepth: Bool = true) -> MarkerObservation {
            let h = side / 2
            let corners = [SIMD3(-h, h, 0.3), SIMD3(h, h, 0.3), SIMD3(h, -h, 0.3), SIMD3(-h, -h, 0.3)]
            return MarkerObservation(id: id, pixels: Array(repeating: .zero, count: 4), corners: corners, fromDepth: fromDepth, depthSigma: 0)
        }
        let keyframes = [
            Keyframe(frameIndex: 0, mapFromCamera: .identity, observations: [observation(id: 1, side: 0.0202), observation(id: 2, side: 0.0404)]),
            Keyframe(
                frameIndex: 1, mapFromCamera: .identity,
                observations: [observation(id: 1, side: 0.0198), observation(id: 3, side: 0.05, fromDepth: false)]),
        ]
        let ratio = FocalCorrectionCheck.liftedSizeRatio(keyframes) { $0 == 2 ? 0.04 : 0.02 }
        #expect(abs((ratio ?? 0) - 1.01) < 1e-9)
        #expect(FocalCorrectionCheck.liftedSizeRatio([]) { _ in 0.02 } == nil)
    }

    /// The map's markers, each an average of its views, measured against their own printed
    /// sides: one marker is enough for a ratio, none gives none.
    @Test func theMapsSizeIsTheMedianOverItsMarkers() {
        func square(_ side: Double, at x: Double) -> [SIMD3<Double>] {
            let h = side / 2
            return [SIMD3(x - h, h, 0.3), SIMD3(x + h, h, 0.3), SIMD3(x + h, -h, 0.3), SIMD3(x - h, -h, 0.3)]
        }
        let map = MarkerMap(corners: [1: square(0.0202, at: 0), 2: square(0.0406, at: 0.1), 3: square(0.0196, at: 0.2)])
        let ratio = FocalCorrectionCheck.mapSizeRatio(map) { $0 == 2 ? 0.04 : 0.02 }
        #expect(abs((ratio ?? 0) - 1.01) < 1e-9)
        let one = FocalCorrectionCheck.mapSizeRatio(MarkerMap(corners: [1: square(0.0203, at: 0)])) { _ in 0.02 }
        #expect(one.map { abs($0 - 1.015) < 1e-9 } == true)
        #expect(FocalCorrectionCheck.mapSizeRatio(MarkerMap()) { _ in 0.02 } == nil)
    }
}
