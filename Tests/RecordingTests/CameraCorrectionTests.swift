import Geometry
import Imaging
import Testing

@testable import Recording

struct CameraCorrectionTests {
    @Test func aCorrectionScalesTheFocalLengthAndShiftsTheCentreInEachPicturesPixels() {
        let colour = CameraIntrinsics(fx: 600, fy: 600, cx: 320, cy: 240, width: 640, height: 480)
        let depth = colour.scaled(toWidth: 320, height: 240)
        let frame = RGBDFrame(
            timestamp: 0, color: RGBAImage(width: 640, height: 480, repeating: RGBA8(r: 0, g: 0, b: 0)),
            depth: DepthImage(width: 320, height: 240, repeating: 1), colorIntrinsics: colour, depthIntrinsics: depth)
        let corrected = frame.correcting(CameraCorrection(focalScale: 1.02, principalShift: SIMD2(4, -2)))
        #expect(corrected.colorIntrinsics == CameraIntrinsics(fx: 612, fy: 612, cx: 324, cy: 238, width: 640, height: 480))
        // The depth picture is half the size: half the shift in its pixels.
        #expect(abs(corrected.depthIntrinsics.fx - depth.fx * 1.02) < 1e-12)
        #expect(abs(corrected.depthIntrinsics.cx - (depth.cx + 2)) < 1e-12 && abs(corrected.depthIntrinsics.cy - (depth.cy - 1)) < 1e-12)
        #expect(frame.correcting(.none).colorIntrinsics == colour)
    }
}
