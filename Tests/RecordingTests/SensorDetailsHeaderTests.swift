import Foundation
import Geometry
import Recording
import Testing

struct SensorDetailsHeaderTests {
    private let k = CameraIntrinsics(fx: 500, fy: 500, cx: 320, cy: 240, width: 640, height: 480)

    @Test func theLensTableAndDepthAccuracyTravelWithTheHeaderAndOldHeadersStillRead() throws {
        var header = ScanHeader(
            device: "iPhone", appVersion: "1", colorIntrinsics: k, depthIntrinsics: k, capLayoutName: "standard-57",
            createdAt: Date(timeIntervalSince1970: 1_714_559_400))
        header.lensDistortion = LensDistortionTable(
            centerX: 2015.5, centerY: 1511.25, referenceWidth: 4032, referenceHeight: 3024,
            lookupTable: [0, 0.001, 0.003, 0.006], inverseLookupTable: [0, -0.001, -0.003, -0.006])
        header.depthAccuracy = .absolute
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let data = try encoder.encode(header)
        let read = try decoder.decode(ScanHeader.self, from: data)
        #expect(read == header)
        // A header written before these fields existed.
        var old = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        old["lensDistortion"] = nil
        old["depthAccuracy"] = nil
        let older = try decoder.decode(ScanHeader.self, from: try JSONSerialization.data(withJSONObject: old))
        #expect(older.lensDistortion == nil && older.depthAccuracy == nil && older.device == "iPhone")
    }
}
