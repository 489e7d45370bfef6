import Foundation
import Geometry
import Imaging
import Testing

@testable import Reconstruction

/// Following the head while its cap slides: views around an analytic head, placed by markers
/// that are right until the cap turns on the head and off by the turn after it.
@Suite("Following the head when its cap slides")
struct HeadTrackerTests {
    static let camera = CameraIntrinsics(fx: 240, fy: 240, cx: 120, cy: 90, width: 240, height: 180)
    static let region = FusionRegion(centre: .zero, radius: 0.1)

    /// Twelve views on a ring round the head, 20° apart.
    static let views: [RigidTransform] = (0..<12).map { i in
        let azimuth = Double(i) * 20 * Double.pi / 180
        return RigidTransform.camera(at: SIMD3(0.25 * cos(azimuth), 0.25 * sin(azimuth), 0.06), lookingAt: .zero, up: SIMD3(0, 0, 1))
    }

    static func depth(from pose: RigidTransform) -> DepthImage {
        var pixels = [Float](repeating: .nan, count: camera.width * camera.height)
        for y in 0..<camera.height {
            for x in 0..<camera.width {
                let ray = SIMD3((Double(x) - camera.cx) / camera.fx, (Double(y) - camera.cy) / camera.fy, 1)
                var z = 0.1
                for _ in 0..<100 {
                    let d = SurfaceRegistrationTests.head(pose.apply(ray * z))
                    if abs(d) < 1e-6 || z > 0.5 { break }
                    z += d / length(ray)
                }
                if z < 0.5, abs(SurfaceRegistrationTests.head(pose.apply(ray * z))) < 1e-5 { pixels[y * camera.width + x] = Float(z) }
            }
        }
        return DepthImage(width: camera.width, height: camera.height, pixels: pixels)
    }

    /// Runs the tracker over the views; from view `slideAt` on, the cap has turned by `turn` on
    /// the head, so the markers place the camera by `turn`'s inverse.
    static func follow(turn: RigidTransform, slideAt: Int) -> (poses: [RigidTransform], report: HeadTrackingReport) {
        let fine = TSDFVolume(voxelSize: 0.001, truncation: 0.004)
        let tracker = HeadTracker(region: region, trackedRegion: region, warmup: 4, threads: 1)
        var poses: [RigidTransform] = []
        for (i, truth) in views.enumerated() {
            let markers = i >= slideAt ? turn.inverse * truth : truth
            let depth = depth(from: truth)
            let pose = tracker.place(markers, depth: depth, intrinsics: camera, fine: fine, frame: i)
            fine.integrate(depth: depth, intrinsics: camera, worldFromCamera: pose, region: region)
            tracker.integrate(depth: depth, intrinsics: camera, pose: pose)
            poses.append(pose)
        }
        return (poses, tracker.report)
    }

    @Test func aCapThatHoldsStillIsPlacedByItsMarkersAlone() {
        let (poses, report) = Self.follow(turn: .identity, slideAt: 99)
        #expect(poses == Self.views, "bit for bit the markers' poses")
        #expect(report.capMovedAtFrame == nil && report.keyframesMoved == 0)
        #expect(report.keyframesTracked + report.keyframesUntracked == 8)
    }

    @Test func aCapThatTurnsIsFollowedAndTheMomentIsNamed() {
        let turn = RigidTransform(rotation: Rotation3(axis: SIMD3(0.2, 0, 1), angle: 5 * Double.pi / 180))
        let (poses, report) = Self.follow(turn: turn, slideAt: 7)
        let errors = zip(poses, Self.views).map { SurfaceRegistrationTests.distance($0, $1) }
        let markerError = SurfaceRegistrationTests.distance(turn.inverse * Self.views[0], Self.views[0])
        #expect(markerError > 5, "the markers alone are \(markerError) mm off")
        #expect(errors.prefix(7).allSatisfy { $0 < 1e-9 }, "before the turn the markers place every view")
        #expect(errors.suffix(5).allSatisfy { $0 < 1 }, "\(errors.map { ($0 * 100).rounded() / 100 })")
        #expect(report.capMovedAtFrame == 7)
        #expect(report.largestTurnDegrees > 4 && report.largestTurnDegrees < 6)
    }
}
