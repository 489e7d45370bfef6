import Cephalometry
import Markers
import Reconstruction
import Testing

@testable import Processing

/// What the therapist reads when the cap rode up or moved on the head.
@Suite("The cap's fit in words")
struct CapFitAdviceTests {
    private let layout = CapLayout.standard

    @Test func aCapWhoseEdgeWasNeverSeenSatTooHigh() throws {
        let rings = try #require(layout.edgeRings)
        let seen = Set(layout.ids).subtracting(rings.lowest)
        let warning = try #require(CapFitAdvice.ridesUpWarning(seen: seen, layout: layout))
        #expect(warning.kind == .capSitsHigh)
        #expect(warning.message.hasPrefix("The cap sat too high: none of the 16 stickers of its lowest ring"))
        #expect(warning.message.contains("Pull the cap down over the forehead and ears"))
        #expect(warning.message.hasSuffix("will not stay."))
    }

    @Test func aFewEdgeStickersSeenAreCounted() throws {
        let rings = try #require(layout.edgeRings)
        let seen = Set(layout.ids).subtracting(rings.lowest.dropFirst(2))
        let text = try #require(CapFitAdvice.ridesUp(seen: seen, layout: layout))
        #expect(text.hasPrefix("the cap sat too high: only 2 of the 16"))
    }

    @Test func aCapThatSatLowSaysNothing() {
        #expect(CapFitAdvice.ridesUpWarning(seen: Set(layout.ids), layout: layout) == nil)
        #expect(CapFitAdvice.ridesUpWarning(seen: Set(layout.ids.filter { $0 % 3 != 0 }), layout: layout) == nil)
    }

    @Test func aCapThatSlidSaysWhenHowFarAndWhatWasDone() throws {
        let slide = CapSlide(
            startSeconds: 9.6, endSeconds: 11.6, startFrame: 288, endFrame: 348, millimetres: 9.7, degrees: 7.4, keyframesSetAside: 9,
            keyframesMoved: 41, onSurfaceByMarkers: 0.4, onSurfaceByHead: 0.8)
        let warning = try #require(CapFitAdvice.slidWarning(slide))
        #expect(warning.kind == .capMoved)
        #expect(warning.message.hasPrefix("The cap slid on the head about 10 s into the scan, by about 10 mm at the stickers (7°)."))
        #expect(warning.message.contains("The 9 views taken while it moved were left out, and the 41 views after it were placed"))
        #expect(warning.message.hasSuffix("fits snugly before the next scan."))
        var still = slide
        still.keyframesSetAside = 0
        #expect(try #require(CapFitAdvice.slidWarning(still)).message.contains("(7°). The 41 views after it were placed"))
        #expect(CapFitAdvice.slidWarning(nil) == nil)
    }

    @Test func aSlideTooFaintToUndoIsSaidAsADoubt() throws {
        let warning = try #require(CapFitAdvice.mayHaveSlidWarning(CapSlideDoubt(startSeconds: 12.6, millimetres: 5.2, gain: 0.1)))
        #expect(warning.kind == .capMayHaveMoved)
        #expect(warning.message.hasPrefix("The cap may have slid on the head about 13 s into the scan, by about 5 mm:"))
        #expect(warning.message.contains("not clearly enough to undo the slide"))
        #expect(warning.message.hasSuffix("scan again with the cap pulled snug if they do."))
        #expect(CapFitAdvice.mayHaveSlidWarning(nil) == nil)
    }

    @Test func framesLeftOutAreCountedAboveATenth() throws {
        var statistics = ReconstructionStatistics()
        statistics.framesExamined = 300
        statistics.framesRejected = 63
        let warning = try #require(CapFitAdvice.unplacedWarning(statistics))
        #expect(warning.kind == .framesUnplaced)
        #expect(warning.message.hasPrefix("63 of the 300 frames examined (21 %) were left out"))
        #expect(warning.message.contains("no frame is placed without them"))
        statistics.framesRejected = 29
        #expect(CapFitAdvice.unplacedWarning(statistics) == nil)
        #expect(CapFitAdvice.unplacedWarning(ReconstructionStatistics()) == nil)
    }
}
