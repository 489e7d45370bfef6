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
        let duplicate = CapLayout(
            dictionaryName: "4x4_50", markerSideMillimetres: 14,
            markers: [CapMarker(id: 1, region: .top), CapMarker(id: 1, region: .back)])
        #expect(throws: MarkerError.invalidLayout("marker ID 1 appears more than once")) { try duplicate.validate() }
        let missing = CapLayout(dictionaryName: "4x4_50", markerSideMillimetres: 14, markers: [CapMarker(id: 60, region: .top)])
        #expect(throws: MarkerError.self) { try missing.validate() }
        let flat = CapLayout(dictionaryName: "4x4_50", markerSideMillimetres: 0, markers: [CapMarker(id: 1, region: .top)])
        #expect(throws: MarkerError.self) { try flat.validate() }
        #expect(throws: (any Error).self) { try CapLayout.decode(json: Array("{}".utf8)) }
    }
}

@Suite struct CapLayoutFileTests {
    @Test func sizesAndPlacementsRoundTrip() throws {
        let cap = CapLayout(
            name: "mixed", dictionaryName: "6x6_250", markerSideMillimetres: 12,
            markers: [
                CapMarker(id: 7, region: .front), CapMarker(id: 8, region: .top, sideMillimetres: 18),
                CapMarker(id: 9, region: .back, placement: CapPlacement(azimuthDegrees: 265, elevationDegrees: 20)),
            ])
        let decoded = try CapLayout.decode(json: try cap.encodedJSON())
        #expect(decoded == cap)
        #expect(decoded.side(of: 8) == 0.018 && decoded.side(of: 7) == 0.012)
        #expect(decoded.sideOverrides == [8: 0.018])
    }

    @Test func everyProblemIsNamed() {
        let cap = CapLayout(
            name: "bad", dictionaryName: "4x4_50", markerSideMillimetres: -3,
            markers: [
                CapMarker(id: 1, region: .top), CapMarker(id: 1, region: .back), CapMarker(id: 50, region: .left),
                CapMarker(id: 2, region: .front, sideMillimetres: 0, placement: CapPlacement(azimuthDegrees: 0, elevationDegrees: 120)),
            ])
        let problems = cap.problems()
        #expect(problems.count == 5, "\(problems)")
        #expect(problems.contains { $0.contains("markerSideMillimetres") && $0.contains("-3") })
        #expect(problems.contains("marker ID 1 appears more than once"))
        #expect(problems.contains { $0.contains("50") && $0.contains("0-49") })
        #expect(problems.contains { $0.contains("marker 2: sideMillimetres") })
        #expect(problems.contains { $0.contains("elevationDegrees") })
        let unknown = CapLayout(name: "x", dictionaryName: "5x5_9", markerSideMillimetres: 10, markers: [CapMarker(id: 0, region: .top)])
        #expect(unknown.problems().count == 1 && unknown.problems()[0].contains("4x4_100"))
    }

    @Test func malformedFilesSayWhatIsWrong() {
        func message(_ json: String) -> String {
            do {
                _ = try CapLayout.decode(json: Array(json.utf8))
                return "accepted"
            } catch {
                return error.description
            }
        }
        #expect(message(#"{"dictionaryName":"4x4_50","markers":[]}"#).contains("\"markerSideMillimetres\" is missing"))
        #expect(
            message(#"{"dictionaryName":"4x4_50","markerSideMillimetres":"14","markers":[]}"#).contains("markerSideMillimetres should be a number"))
        let region = message(#"{"dictionaryName":"4x4_50","markerSideMillimetres":14,"markers":[{"id":1,"region":"nose"}]}"#)
        #expect(region.contains("markers[0].region") && region.contains("front, left, right, back, top"), "\(region)")
        #expect(message("not json").contains("not valid JSON"))
        #expect(message(#"{"dictionaryName":"4x4_50","markerSideMillimetres":14,"markers":[{"id":1,"region":"top"}]}"#) == "accepted")
    }
}
