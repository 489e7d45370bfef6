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
        #expect(warning.message.hasPrefix("19 of the cap's 57 stickers were never seen"))
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
        #expect(warning.message.hasPrefix("1 of the cap's 57 stickers was never seen"))
    }
}
