import Foundation
import Geometry
import Recording
import Testing

@testable import Reconstruction

/// The camera a reconstruction settled on and the views through it: which camera reads raw
/// pixels, which pinhole ones, and that the statistics keep it whole.
@Suite struct SettledCameraTests {
    static let recorded = CameraIntrinsics(
        fx: 600, fy: 602, cx: 318, cy: 242, width: 640, height: 480, distortion: RadialDistortion(k1: -0.05, k2: 0.01))

    static var settled: SettledCamera {
        var camera = SettledCamera(recorded: recorded)
        camera.focalScale = 1.03
        camera.focalScaleSigma = 0.002
        camera.focalScaleApplied = 1.03
        camera.principalShift = SIMD2(4, -3)
        camera.principalShiftSigma = SIMD2(0.5, 0.6)
        camera.k1 = -0.07
        camera.k1Sigma = 0.004
        return camera
    }

    @Test func theCamerasStateTheConvention() {
        let camera = Self.settled
        #expect(camera.correction == CameraCorrection(focalScale: 1.03, principalShift: SIMD2(4, -3)))
        // Inside: the recorded pinhole, corrected. Outside: the same with the recorded lens.
        #expect(camera.pinhole == CameraCorrection(focalScale: 1.03, principalShift: SIMD2(4, -3)).applied(to: Self.recorded.pinhole))
        #expect(camera.pinhole.distortion.isNone)
        #expect(camera.lens.fx == camera.pinhole.fx && camera.lens.cx == camera.pinhole.cx)
        #expect(camera.lens.distortion == Self.recorded.distortion)
        // Calibrated: the estimated k1 in place of the recorded one, k2 as recorded.
        #expect(camera.calibrated.distortion == RadialDistortion(k1: -0.07, k2: 0.01))
        // A focal estimate under the threshold is reported, not applied.
        var small = SettledCamera(recorded: Self.recorded)
        small.focalScale = 1.004
        #expect(small.correction == .none && small.lens == Self.recorded)
    }

    @Test func rawAndPinholePixelsAreTheResamplingsMap() {
        let camera = Self.settled
        for raw in [SIMD2(0.0, 0.0), SIMD2(639.0, 479.0), SIMD2(100.0, 400.0), SIMD2(318.0, 242.0)] {
            let pinhole = camera.pinholePixel(ofRawPixel: raw)
            #expect(distance(camera.rawPixel(ofPinholePixel: pinhole), raw) < 1e-9, "\(raw)")
        }
        // Barrel distortion: the pinhole picture reaches further out than the raw one.
        #expect(camera.pinholePixel(ofRawPixel: SIMD2(0, 0)).x < 0)
        // Without a lens, the two are the same pixel.
        let pinholeOnly = SettledCamera(recorded: Self.recorded.pinhole)
        #expect(pinholeOnly.pinholePixel(ofRawPixel: SIMD2(12.25, 7.5)) == SIMD2(12.25, 7.5))
        #expect(pinholeOnly.rawPixel(ofPinholePixel: SIMD2(12.25, 7.5)) == SIMD2(12.25, 7.5))
    }

    @Test func theStatisticsKeepTheCameraWhole() {
        var statistics = ReconstructionStatistics()
        statistics.keep(Self.settled)
        #expect(statistics.focalScaleApplied == 1.03 && statistics.principalPointShift == [4, -3] && statistics.distortionK1 == -0.07)
        #expect(statistics.camera(recorded: Self.recorded) == Self.settled)
        // Nothing estimated: nothing kept, and the recorded camera comes back.
        var none = ReconstructionStatistics()
        none.keep(SettledCamera(recorded: Self.recorded))
        #expect(none == ReconstructionStatistics())
        #expect(none.camera(recorded: Self.recorded) == SettledCamera(recorded: Self.recorded))
    }

    @Test func aViewsRayThroughAProjectedPointPassesThroughIt() throws {
        let pose = RigidTransform.camera(at: SIMD3(0.3, -0.1, 0.05), lookingAt: .zero, up: SIMD3(0, 0, 1))
        let view = ReconstructedView(frameIndex: 4, worldFromCamera: pose, camera: Self.settled)
        #expect(view.position == pose.translation)
        for point in [SIMD3(0.0, 0.0, 0.0), SIMD3(0.02, 0.05, -0.03), SIMD3(-0.04, 0.01, 0.06)] {
            let pixel = try #require(view.project(point))
            #expect(view.contains(rawPixel: pixel))
            let (origin, direction) = view.ray(throughRawPixel: pixel)
            #expect(abs(length(direction) - 1) < 1e-12)
            let along = dot(point - origin, direction)
            #expect(length(origin + direction * along - point) < 1e-9, "\(point)")
        }
        // Behind the camera: no pixel; off the picture: not contained.
        #expect(view.project(SIMD3(0.6, -0.2, 0.1)) == nil)
        #expect(!view.contains(rawPixel: SIMD2(-0.5, 10)) && !view.contains(rawPixel: SIMD2(10, 480)))
    }
}
