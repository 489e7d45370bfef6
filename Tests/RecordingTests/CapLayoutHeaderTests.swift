import Foundation
import Markers
import Testing

@testable import Recording

@Suite struct CapLayoutHeaderTests {
    /// A clinic's own cap: AprilTag codes, 20 mm with two larger markers, one placed by hand.
    static let clinicCap = CapLayout(
        name: "clinic-apriltag", dictionaryName: "apriltag_36h11", markerSideMillimetres: 20,
        markers: [
            CapMarker(id: 100, region: .front), CapMarker(id: 101, region: .left, sideMillimetres: 25),
            CapMarker(id: 102, region: .right), CapMarker(id: 103, region: .back),
            CapMarker(id: 104, region: .top, sideMillimetres: 30, placement: CapPlacement(azimuthDegrees: 90, elevationDegrees: 70)),
        ])

    @Test func theHeaderKeepsTheLayoutItWasRecordedWith() throws {
        let fixture = try ScanFixture()
        defer { fixture.remove() }
        var header = fixture.header
        header.capLayoutName = Self.clinicCap.name
        header.capLayout = Self.clinicCap
        let url = fixture.folder.appendingPathComponent("clinic.hscan")
        let writer = try ScanWriter(url: url, header: header, options: .init(colorCodec: .png))
        try writer.append(fixture.frame(0))
        try writer.close()
        let reader = try ScanReader(url: url)
        #expect(reader.header.capLayout == Self.clinicCap)
        #expect(try reader.header.layout() == Self.clinicCap)
        #expect(try reader.header.layout().side(of: 104) == 0.03)
    }

    @Test func headersWithoutALayoutFallBackToItsName() throws {
        let fixture = try ScanFixture()
        defer { fixture.remove() }
        var header = fixture.header
        header.capLayoutName = "standard-57"
        // An older header: the JSON has no capLayout key at all.
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let json = try encoder.encode(header)
        #expect(!String(decoding: json, as: UTF8.self).contains("capLayout\""))
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let old = try decoder.decode(ScanHeader.self, from: json)
        #expect(old.capLayout == nil)
        #expect(try old.layout() == CapLayout.standard)
        header.capLayoutName = "clinic-apriltag"
        #expect(throws: MarkerError.unknownLayout(name: "clinic-apriltag", known: ["standard-57"])) { try header.layout() }
    }
}
