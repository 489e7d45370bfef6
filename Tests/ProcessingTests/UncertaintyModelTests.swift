import Cephalometry
import Reconstruction
import Testing

@testable import Processing

@Suite("What processing knows about its inputs' uncertainty")
struct UncertaintyModelTests {
    @Test func picksAreAsSureAsTheirSpreadAllowsButNeverBelowAFingertip() {
        let tight = LandmarkEstimate(points: [SIMD3(0, 0, 0), SIMD3(0.0002, 0, 0), SIMD3(0, 0.0002, 0)], residuals: [nil, nil, nil])
        let loose = LandmarkEstimate(points: [SIMD3(-0.004, 0, 0), SIMD3(0.004, 0, 0)], residuals: [nil, nil])
        let u = UncertaintyModel.uncertainty(
            estimates: [.nasion: tight, .leftTragion: loose], found: nil, statistics: ReconstructionStatistics())
        #expect(u.landmarkSigma[.nasion] == UncertaintyModel.pickFloor)
        let expected = loose.spreadMM / 1000 / (3 * Double(loose.used.count)).squareRoot()
        #expect(loose.spreadMM > 3)
        #expect(abs((u.landmarkSigma[.leftTragion] ?? 0) - expected) < 1e-12)
        #expect(u.landmarkSigma[.rightTragion] == nil)
        #expect(u.scaleSigma == 0)
    }

    @Test func aStraddlingIntervalIsWarnedOfWithBothLevels() throws {
        let warning = try #require(
            UncertaintyModel.straddleWarning(cvai: 6.1, interval: ValueInterval(low: 5.8, high: 6.5), boundaries: [3.5, 6.25, 8.75, 11]))
        #expect(warning.kind == .intervalStraddlesLevel)
        #expect(warning.message.contains("5.80–6.50 %, across the boundary 6.25 % between CHOA levels 2 and 3"))
        #expect(UncertaintyModel.straddleWarning(cvai: 7, interval: ValueInterval(low: 6.6, high: 7.4), boundaries: [3.5, 6.25, 8.75, 11]) == nil)
    }
}
