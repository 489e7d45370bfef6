import Evaluation
import Testing

@Suite("Bad-cap benchmark figures")
struct CapBenchResultTests {
    private func trial(
        _ condition: String, _ scenario: String, _ seed: UInt64, cvai: Double?, surface: Double? = nil, refusal: String? = nil
    )
        -> CapTrial
    {
        CapTrial(condition: condition, scenario: scenario, seed: seed, trueCVAI: 5, cvai: cvai, surfaceMeanMM: surface, refusal: refusal)
    }

    @Test func groupsKeepTheirOrderAndCountRefusals() {
        let result = CapBenchResult(trials: [
            trial("perfect", "ideal", 1, cvai: 5.1, surface: 0.1), trial("perfect", "ideal", 2, cvai: 4.5, surface: 0.3),
            trial("hair-3mm", "ideal", 1, cvai: nil, refusal: "too few markers"), trial("hair-3mm", "ideal", 2, cvai: 5.2, surface: 1.5),
        ])
        #expect(result.groups.map(\.condition) == ["perfect", "hair-3mm"])
        let perfect = result.groups[0], hair = result.groups[1]
        #expect(perfect.measured == 2 && perfect.within03 == 1)
        #expect(abs((perfect.cvaiErrorMedian ?? 0) - 0.3) < 1e-12 && abs((perfect.cvaiErrorMax ?? 0) - 0.5) < 1e-12)
        #expect(abs((perfect.surfaceMeanMM ?? 0) - 0.2) < 1e-12)
        #expect(hair.measured == 1 && hair.refusals == ["seed 1: too few markers"])
    }
}
