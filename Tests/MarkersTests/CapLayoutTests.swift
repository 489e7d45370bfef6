import Testing
@testable import Markers

@Suite struct CapLayoutTests {
    @Test func standardCapHas57MarkersOnEveryRegion() throws {
        let cap = CapLayout.standard
        try cap.validate()
        #expect(cap.ids == Array(0..<57))
        #expect(try cap.dictionary().name == "4x4_100")
        #expect(cap.markerSide == 0.014)
        for region in HeadRegion.allCases { #expect(!cap.ids(in: region).isEmpty, "\(region)") }
        #expect(cap.region(of: 0) == .front && cap.region(of: 56) == .top && cap.region(of: 57) == nil)
    }

    @Test func jsonRoundTrips() throws {
        let cap = CapLayout.standard
        #expect(try CapLayout.decode(json: try cap.encodedJSON()) == cap)
    }

    @Test func readsAHandWrittenLayout() throws {
        let json = #"{"dictionaryName":"aruco_original","markerSideMillimetres":10,"markers":[{"id":3,"region":"left"},{"id":900,"region":"back"}]}"#
        let cap = try CapLayout.decode(json: Array(json.utf8))
        #expect(cap.region(of: 900) == .back)
    }

    @Test func contradictionsAreRejected() {
        let duplicate = CapLayout(dictionaryName: "4x4_50", markerSideMillimetres: 14,
                                  markers: [CapMarker(id: 1, region: .top), CapMarker(id: 1, region: .back)])
        #expect(throws: MarkerError.invalidLayout("marker ID 1 appears more than once")) { try duplicate.validate() }
        let missing = CapLayout(dictionaryName: "4x4_50", markerSideMillimetres: 14, markers: [CapMarker(id: 60, region: .top)])
        #expect(throws: MarkerError.self) { try missing.validate() }
        let flat = CapLayout(dictionaryName: "4x4_50", markerSideMillimetres: 0, markers: [CapMarker(id: 1, region: .top)])
        #expect(throws: MarkerError.self) { try flat.validate() }
        #expect(throws: (any Error).self) { try CapLayout.decode(json: Array("{}".utf8)) }
    }
}
