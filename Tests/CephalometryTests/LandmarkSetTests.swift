import Cephalometry
import Foundation
import Testing

@Suite("Landmark vocabulary")
struct LandmarkSetTests {
    private let landmarks = HeadLandmarks(nasion: [0, 0.07, 0], noseTip: [0, 0.09, -0.02], leftTragion: [-0.06, 0, 0], rightTragion: [0.06, 0, 0])

    private func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test func theSetIsKeyedByTheEnumAndItsJSONByTheNames() throws {
        #expect(landmarks[.noseTip] == landmarks.noseTip)
        var moved = landmarks
        moved[.leftTragion].z = 0.01
        #expect(moved.leftTragion.z == 0.01)
        #expect(try json(landmarks) == #"{"leftTragion":[-0.06,0,0],"nasion":[0,0.07,0],"noseTip":[0,0.09,-0.02],"rightTragion":[0.06,0,0]}"#)
        #expect(try JSONDecoder().decode(HeadLandmarks.self, from: Data(try json(landmarks).utf8)) == landmarks)
    }

    @Test func aPointMustBeThreeFiniteNumbers() {
        let short = #"{"nasion":[0,0],"noseTip":[0,0,0],"leftTragion":[0,0,0],"rightTragion":[0,0,0]}"#
        #expect(throws: CephalometryError.unreadableLandmarks("nasion must be three finite numbers [x, y, z] in metres")) {
            try HeadLandmarks.decode(json: Data(short.utf8))
        }
    }

    /// Dictionaries keyed by landmark stay JSON objects keyed by name, as files always had them.
    @Test func dictionariesKeyedByLandmarkAreObjectsKeyedByName() throws {
        #expect(try json([Landmark.noseTip: 1, .nasion: 2]) == #"{"nasion":2,"noseTip":1}"#)
        let decoded = try JSONDecoder().decode([Landmark: Int].self, from: Data(#"{"leftTragion":3}"#.utf8))
        #expect(decoded == [.leftTragion: 3])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([Landmark: Int].self, from: Data(#"{"chin":3}"#.utf8)) }
    }

    @Test func mapKeepsEachLandmarksPlace() {
        let labels = landmarks.map { landmark, _ in landmark.rawValue }
        #expect(Landmark.allCases.allSatisfy { labels[$0] == $0.rawValue })
    }

    @Test func sourcesReadAndWriteTheirOldNames() throws {
        #expect(try json([LandmarkSource.picksAndAutomatic]) == #"["picks+automatic"]"#)
        #expect(LandmarkSource(rawValue: "points") == .points)
    }
}
