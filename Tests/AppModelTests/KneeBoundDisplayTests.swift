import Foundation
import RangeOfMotion
import Testing

@testable import KneeFeature

/// An end of the movement the camera did not see is shown as a bound, never as the knee's end.
@Suite("Knee result with an end not seen")
struct KneeBoundDisplayTests {
    /// A clean simulated video's analysis, with the warnings it would carry had the leg left
    /// the picture at the given ends.
    private func analysis(mostBent: Bool, straightest: Bool) throws -> RangeOfMotionAnalysis {
        var s = LegSimulation()
        s.leg.side = .right
        s.leg.motion.extensionDegrees = 0
        s.leg.motion.flexionDegrees = 120
        var a = try RangeOfMotionAnalyzer().analyze(LegSimulator(s).video(seed: 11).poses, side: .right)
        #expect(a.accepted && a.minimum?.uncertainty != nil)
        if mostBent { a.warnings.append(.endLeftPicture(mostBent: true)) }
        if straightest { a.warnings.append(.endLeftPicture(mostBent: false)) }
        return a
    }

    @Test("the most bent end not seen: flexion at least, no ± on its angle, the form marked")
    func mostBentUnseen() throws {
        let a = try analysis(mostBent: true, straightest: false)
        let r = try #require(strings(.en).kneeResult(a, date: Date(timeIntervalSince1970: 0)))
        #expect(r.headline.contains("-≥"))
        #expect(r.flexion.hasPrefix("Flexion at least ") && !r.extension.contains("at least"))
        #expect(r.mostBent.contains("or less") && !r.mostBent.contains("±"))
        #expect(r.straightest.contains("±") && !r.straightest.contains("or more"))
        let de = try #require(strings(.de).kneeResult(a, date: Date(timeIntervalSince1970: 0)))
        #expect(de.flexion.hasPrefix("Beugung mindestens ") && de.mostBent.contains("oder weniger"))
    }

    @Test("the straightest end not seen: extension at least; both ends seen: values as before")
    func straightestUnseen() throws {
        let a = try analysis(mostBent: false, straightest: true)
        let r = try #require(strings(.en).kneeResult(a, date: Date(timeIntervalSince1970: 0)))
        #expect(r.extension.hasPrefix("Extension at least ") && !r.flexion.contains("at least"))
        #expect(r.straightest.contains("or more") && !r.straightest.contains("±"))
        let seen = try #require(strings(.en).kneeResult(try analysis(mostBent: false, straightest: false), date: Date(timeIntervalSince1970: 0)))
        #expect(
            !seen.headline.contains("≥") && !seen.headline.contains("≤") && seen.flexion.hasPrefix("Flexion ") && !seen.flexion.contains("at least"))
    }

    /// A ± on the screen says what it is; where neither end shows one (both bounds, or the
    /// original gates, which give none), nothing is said.
    @Test("the result says what ± means when an end shows one, in the user's language")
    func uncertaintyExplained() throws {
        let seen = try analysis(mostBent: false, straightest: false)
        let en = try #require(strings(.en).kneeResult(seen, date: Date(timeIntervalSince1970: 0)))
        #expect(en.uncertaintyNote?.hasPrefix("± is an end's standard error") == true)
        let de = try #require(strings(.de).kneeResult(seen, date: Date(timeIntervalSince1970: 0)))
        #expect(de.uncertaintyNote?.hasPrefix("± ist der Standardfehler") == true)
        let bounds = try #require(strings(.en).kneeResult(try analysis(mostBent: true, straightest: true), date: Date(timeIntervalSince1970: 0)))
        #expect(bounds.uncertaintyNote == nil)
        var s = LegSimulation()
        s.leg.side = .right
        let original = try RangeOfMotionAnalyzer(settings: .originalGates).analyze(LegSimulator(s).video(seed: 11).poses, side: .right)
        let plain = try #require(strings(.en).kneeResult(original, date: Date(timeIntervalSince1970: 0)))
        #expect(plain.uncertaintyNote == nil && !plain.mostBent.contains("±"))
    }
}
