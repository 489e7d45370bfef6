import Cephalometry
import Testing

@testable import Processing

/// What the therapist reads when stickers of the cap were never seen.
@Suite("Stickers never seen")
struct CapCoverageTests {
    @Test func aWholeCapSaysNothing() {
        #expect(CapCoverage.warning(seen: 57, of: 57) == nil)
        #expect(CapCoverage.warning(seen: 0, of: 0) == nil)
    }

    @Test func aThirdMissingIsStillEnoughAndSaysWhatToDo() throws {
        let warning = try #require(CapCoverage.warning(seen: 38, of: 57))
        #expect(warning.kind == .stickersMissing)
        #expect(warning.message.hasPrefix("19 of the cap's 57 stickers were never read"))
        #expect(warning.message.contains("the other 38 were enough to place the scan"))
        #expect(warning.message.contains("replace any missing stickers before the next scan"))
    }

    @Test func tooFewSeenAsksForACheckOfTheSurface() throws {
        let warning = try #require(CapCoverage.warning(seen: 37, of: 57))
        #expect(warning.message.contains("with only 37 the scan may be less accurate"))
        #expect(warning.message.contains("check the head's surface in the replay"))
    }

    @Test func oneStickerIsSingular() throws {
        let warning = try #require(CapCoverage.warning(seen: 56, of: 57))
        #expect(warning.message.hasPrefix("1 of the cap's 57 stickers was never read"))
    }

    @Test func stickersSeenOnlyAsOutlinesAreNamedAndAskedToBeReplaced() throws {
        let warning = try #require(CapCoverage.warning(seen: 44, of: 57, unread: 11))
        #expect(warning.message.hasPrefix("13 of the cap's 57 stickers were never read"))
        #expect(warning.message.contains("not filmed); 11 of them had smeared, torn or creased prints, were placed by their outlines"))
        #expect(warning.message.contains("and should be replaced; the other 44 were enough"))
        let one = try #require(CapCoverage.warning(seen: 56, of: 57, unread: 1))
        #expect(one.message.contains("; 1 of them had a smeared, torn or creased print, was placed by its outline and should be replaced"))
        // Never more outlines than stickers missing.
        let capped = try #require(CapCoverage.warning(seen: 55, of: 57, unread: 9))
        #expect(capped.message.contains("; 2 of them had"))
    }
}
