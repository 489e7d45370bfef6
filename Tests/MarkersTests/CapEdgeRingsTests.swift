import Testing

@testable import Markers

@Suite struct CapEdgeRingsTests {
    @Test func theStandardCapsEdgeIsItsRingBelowTheWidestOutline() throws {
        let rings = try #require(CapLayout.standard.edgeRings)
        let elevation = Dictionary(uniqueKeysWithValues: CapLayout.standard.markers.map { ($0.id, $0.placement?.elevationDegrees ?? .nan) })
        #expect(rings.lowest.count == 16)
        #expect(rings.above.count == 16)
        #expect(rings.lowest.allSatisfy { elevation[$0] == -4 })
        #expect(rings.above.allSatisfy { elevation[$0] == 14 })
    }

    @Test func aLayoutWithoutPlacementsHasNoEdge() {
        let layout = CapLayout(
            dictionaryName: CapLayout.standard.dictionaryName, markerSideMillimetres: 14,
            markers: (0..<12).map { CapMarker(id: $0, region: .front) })
        #expect(layout.edgeRings == nil)
    }

    @Test func aCapRidesUpWhenItsEdgeIsUnseenAndTheRingAboveShows() throws {
        let rings = try #require(CapLayout.standard.edgeRings)
        let upper = Set(CapLayout.standard.ids).subtracting(rings.lowest)
        #expect(rings.ridesUp(seen: upper))
        #expect(rings.ridesUp(seen: upper.union(rings.lowest.prefix(2))))
        #expect(!rings.ridesUp(seen: upper.union(rings.lowest.prefix(3))))
        #expect(!rings.ridesUp(seen: Set(CapLayout.standard.ids)))
        // Only the top filmed so far: nothing is known about the edge yet.
        #expect(!rings.ridesUp(seen: Set(CapLayout.standard.markers.filter { $0.region == .top }.map(\.id))))
    }

    @Test func everyThirdStickerLostIsNoCapRidingUp() throws {
        let rings = try #require(CapLayout.standard.edgeRings)
        let kept = Set(CapLayout.standard.ids.filter { $0 % 3 != 0 })
        #expect(!rings.ridesUp(seen: kept))
    }
}
