import Foundation
import Geometry
import Imaging
import Testing

@testable import Recording

struct LensCorrectionTests {
    static let lens = CameraIntrinsics(
        fx: 300, fy: 300, cx: 159.5, cy: 119.5, width: 320, height: 240, distortion: RadialDistortion(k1: -0.12))

    /// A smooth pattern and a depth ramp as a pinhole sees them.
    static func pinholeFrame() -> RGBDFrame {
        var colour = RGBAImage(width: 320, height: 240, repeating: RGBA8(r: 0, g: 0, b: 0))
        var depth = DepthImage(width: 320, height: 240, repeating: .nan)
        for y in 0..<240 {
            for x in 0..<320 {
                let g = UInt8(128 + 100 * sin(Double(x) / 9) * cos(Double(y) / 11))
                colour[x, y] = RGBA8(r: g, g: 255 - g, b: UInt8(x % 256))
                depth[x, y] = Float(0.3 + 0.0005 * Double(x))
            }
        }
        let k = lens.pinhole
        return RGBDFrame(timestamp: 0, color: colour, depth: depth, colorIntrinsics: k, depthIntrinsics: k)
    }

    /// Warped through the lens and corrected again, the pictures come back where the lens saw
    /// them (its corners see beyond the pinhole's picture, so they stay black).
    @Test func correctingUndoesTheLens() {
        let pinhole = Self.pinholeFrame()
        var seen = pinhole
        seen.color = pinhole.color.resampled(from: Self.lens.undistortedPixel)
        seen.depth = pinhole.depth.resampledNearest(from: Self.lens.undistortedPixel)
        (seen.colorIntrinsics, seen.depthIntrinsics) = (Self.lens, Self.lens)
        let corrected = seen.removingLensDistortion()
        #expect(corrected.colorIntrinsics == Self.lens.pinhole)
        var worstColour = 0, worstDepth: Float = 0, compared = 0
        for y in 40..<200 {
            for x in 50..<270 {
                worstColour = max(worstColour, abs(Int(corrected.color[x, y].g) - Int(pinhole.color[x, y].g)))
                worstDepth = max(worstDepth, abs(corrected.depth[x, y] - pinhole.depth[x, y]))
                compared += 1
            }
        }
        #expect(compared > 30_000)
        // Two bilinear resamplings blur a little; the nearest depth pixel is at most one off.
        #expect(worstColour <= 12, "colour differs by \(worstColour) levels")
        #expect(worstDepth <= 0.0011, "depth differs by \(worstDepth) m")
        #expect(seen.color[0, 0] == RGBA8(r: 0, g: 0, b: 0), "a barrel lens sees beyond the pinhole's corner")
    }

    @Test func aPinholeFrameIsLeftAsItIs() {
        let frame = Self.pinholeFrame()
        let same = frame.removingLensDistortion()
        #expect(same.color == frame.color)
        #expect(same.colorIntrinsics == frame.colorIntrinsics)
    }

    /// Frame records hold the pinhole part; every frame read takes the header's lens.
    @Test func framesTakeTheHeadersLens() throws {
        let fixture = try ScanFixture(width: 32, height: 24)
        defer { fixture.remove() }
        var header = fixture.header
        let lens = RadialDistortion(k1: -0.05, k2: 0.01)
        header.colorIntrinsics.distortion = lens
        header.depthIntrinsics.distortion = lens
        let url = fixture.folder.appendingPathComponent("lens.hscan")
        let writer = try ScanWriter(url: url, header: header, options: .init(colorCodec: .png))
        for i in 0..<2 { try writer.append(fixture.frame(i)) }
        try writer.close()
        let reader = try ScanReader(url: url)
        #expect(reader.header.colorIntrinsics.distortion == lens)
        #expect(try reader.frame(at: 1).colorIntrinsics.distortion == lens)
        #expect(try reader.frame(at: 1).depthIntrinsics.distortion == lens)
    }

    @Test func cameraFilesCarryTheLensAndRefuseImpossibleTerms() throws {
        let plain = #"{"fx": 30, "fy": 31, "cx": 16, "cy": 12, "width": 32, "height": 24, "k1": -0.07, "k2": 0.01}"#
        let partial = try TUMFormat.cameraFile(Array(plain.utf8), path: "cam.json")
        #expect(partial.color.distortion == RadialDistortion(k1: -0.07, k2: 0.01))
        #expect(partial.depth.distortion == RadialDistortion(k1: -0.07, k2: 0.01))
        let wild = #"{"fx": 30, "fy": 31, "cx": 16, "cy": 12, "width": 32, "height": 24, "k1": 7}"#
        #expect(throws: TUMError.self) { try TUMFormat.cameraFile(Array(wild.utf8), path: "cam.json") }
    }
}
