import Testing

@testable import Evaluation

@Suite("What bench markerless counts")
struct MarkerlessBenchResultTests {
    static func trial(cvai: Double, hole: Bool = false) -> MarkerlessTrial {
        var trial = MarkerlessTrial(cap: "printed", scenario: "restless", seed: 1, trueCVAI: 5)
        trial.cvai = cvai
        if hole {
            trial.refusal = "not measured: without stickers a part of the head the measurement needs was never placed"
            trial.refusedForHole = true
        }
        return trial
    }

    /// Processing refuses a measurement over a part of the scan never placed; the bench counts
    /// such a scan as refused, apart, with what it would have measured.
    @Test("a scan measured over a hole counts as refused, with the error it would have had")
    func holeRefused() throws {
        let result = MarkerlessBenchResult(trials: [Self.trial(cvai: 5.1), Self.trial(cvai: 6.48, hole: true), Self.trial(cvai: 4.8)])
        let group = try #require(result.groups.first)
        #expect(group.scans == 3 && group.reconstructed == 2)
        #expect(group.refusedForHole == 1)
        #expect(group.holeCVAIErrors.count == 1 && abs(group.holeCVAIErrors[0] - 1.48) < 1e-9)
        #expect(abs((group.cvaiErrorMax ?? 0) - 0.2) < 1e-9)
        #expect(group.refusals.count == 1)
    }
}
