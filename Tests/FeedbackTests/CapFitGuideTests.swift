import Markers
import Testing

@testable import Feedback

/// The guide notices a cap that rides up while the therapist can still pull it down.
@Suite struct CapFitGuideTests {
    /// Feeds the markers two per frame at 30 frames a second; returns the events.
    private func film(_ ids: [Int], into guide: inout ScanGuide, from start: Double = 0) -> [FeedbackEvent] {
        var events: [FeedbackEvent] = []
        var t = start
        for pair in stride(from: 0, to: ids.count, by: 2) {
            let shown = ids[pair..<min(pair + 2, ids.count)].enumerated().map { marker($1, x: 300 + 40 * Double($0), y: 240) }
            events += guide.update(frame(t, shown)).events
            t += 1 / 30
        }
        return events
    }

    @Test func aCapWithoutItsLowestRingIsSaidOnceWhenTheRingAboveHasBeenFilmed() throws {
        let rings = try #require(CapLayout.standard.edgeRings)
        var guide = try ScanGuide(settings: plainSettings())
        let aboveFirstHalf = Array(rings.above.prefix(11))
        var events = film(aboveFirstHalf, into: &guide)
        #expect(!events.contains(.speak(.capTooHigh, .reminder)))
        events = film(Array(rings.above.dropFirst(11)) + rings.above, into: &guide, from: 1)
        let spoken = events.filter { $0 == .speak(.capTooHigh, .reminder) }.count
        #expect(spoken == 1)
        #expect(guide.decisions.contains { $0.subject == .capFit && $0.to == "tooHigh" })
    }

    @Test func aCapThatSitsLowIsNeverSaid() throws {
        let rings = try #require(CapLayout.standard.edgeRings)
        var guide = try ScanGuide(settings: plainSettings())
        // Edge and ring above filmed together, side by side, as a well-fitting cap shows them.
        let interleaved = zip(rings.lowest, rings.above).flatMap { [$0, $1] }
        let events = film(interleaved + CapLayout.standard.ids, into: &guide)
        #expect(!events.contains(.speak(.capTooHigh, .reminder)))
        #expect(!guide.decisions.contains { $0.subject == .capFit })
    }

    @Test func thePhraseIsSpokenInBothLanguages() {
        #expect(Phrasebook(language: .en).text(.capTooHigh).hasPrefix("The cap sits too high"))
        #expect(Phrasebook(language: .de).text(.capTooHigh).hasPrefix("Die Mütze sitzt zu hoch"))
        #expect(Phrase.capTooHigh.key == "capTooHigh")
    }
}
