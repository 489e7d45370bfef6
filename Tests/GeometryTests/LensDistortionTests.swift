import Foundation
import Testing

@testable import Geometry

struct LensDistortionTests {
    static let lens = CameraIntrinsics(
        fx: 590, fy: 591, cx: 321.5, cy: 238.25, width: 640, height: 480, distortion: RadialDistortion(k1: -0.08, k2: 0.02))

    /// Undistorting what the lens distorted gives the point back, over the whole picture of a
    /// barrel and a pincushion lens.
    @Test(arguments: [RadialDistortion(k1: -0.2, k2: 0.05), RadialDistortion(k1: 0.15), RadialDistortion(k1: -0.08, k2: 0.02)])
    func undistortInvertsDistort(lens: RadialDistortion) {
        for x in stride(from: -0.6, through: 0.6, by: 0.1) {
            for y in stride(from: -0.45, through: 0.45, by: 0.09) {
                let p = SIMD2(x, y)
                let back = lens.undistort(lens.distort(p))
                #expect(abs(back.x - p.x) < 1e-10 && abs(back.y - p.y) < 1e-10, "\(p) came back as \(back)")
            }
        }
    }

    /// The first radial term moves a point at normalised radius r by k1 r³ (OpenCV's model).
    @Test func distortionFollowsOpenCVsModel() {
        let lens = RadialDistortion(k1: -0.1, k2: 0.01)
        let p = SIMD2(0.3, -0.4)  // r = 0.5
        let expected = p * (1 - 0.1 * 0.25 + 0.01 * 0.0625)
        #expect(abs(lens.distort(p).x - expected.x) < 1e-15 && abs(lens.distort(p).y - expected.y) < 1e-15)
        #expect(RadialDistortion.none.distort(p) == p)
    }

    @Test func projectAndUnprojectGoThroughTheLens() throws {
        let k = Self.lens
        let point = SIMD3(0.08, -0.05, 0.31)
        let pixel = try #require(k.project(point))
        let pinholePixel = try #require(k.pinhole.project(point))
        #expect(length(SIMD3(pixel - pinholePixel, 0)) > 1, "the lens moves an off-centre point by pixels")
        let back = k.unproject(pixel, depth: point.z)
        #expect(length(back - point) < 1e-12)
        let undistorted = k.undistortedPixel(pixel)
        #expect(abs(undistorted.x - pinholePixel.x) < 1e-9 && abs(undistorted.y - pinholePixel.y) < 1e-9)
        #expect(k.distortedPixel(ofPinholePixel: pinholePixel).x - pixel.x < 1e-9)
    }

    /// Scaling to another resolution keeps the lens: its terms act on normalised coordinates.
    @Test func scalingKeepsTheDistortion() throws {
        let small = Self.lens.scaled(toWidth: 320, height: 240)
        #expect(small.distortion == Self.lens.distortion)
        let point = SIMD3(0.05, 0.04, 0.3)
        let big = try #require(Self.lens.project(point)), little = try #require(small.project(point))
        #expect(abs((big.x + 0.5) / 2 - 0.5 - little.x) < 1e-9)
    }

    /// Files written before lenses had distortion read as pinholes, and pinholes are written
    /// as they always were.
    @Test func jsonWithoutDistortionIsAPinholeAndPinholesAreWrittenAsBefore() throws {
        let old = #"{"fx": 500, "fy": 501, "cx": 320, "cy": 240, "width": 640, "height": 480}"#
        let k = try JSONDecoder().decode(CameraIntrinsics.self, from: Data(old.utf8))
        #expect(k.distortion == .none)
        let written = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(k)) as? [String: Any]
        #expect(written.map { Set($0.keys) } == ["fx", "fy", "cx", "cy", "width", "height"])
        let roundTrip = try JSONDecoder().decode(CameraIntrinsics.self, from: try JSONEncoder().encode(Self.lens))
        #expect(roundTrip == Self.lens)
    }

    /// A header from another device with an impossible lens is refused, not used.
    @Test(arguments: ["7", "-1.5", "1e300"]) func impossibleLensesAreRefused(k1: String) {
        let json = #"{"fx": 500, "fy": 501, "cx": 320, "cy": 240, "width": 640, "height": 480, "k1": "# + k1 + "}"
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(CameraIntrinsics.self, from: Data(json.utf8)) }
    }
}
