import Feedback
import Foundation
import Geometry
import Imaging
import Reconstruction
import Recording
import Testing

@testable import Scanning

/// What the guide without markers reads from frames: the head's box, its distance, and where
/// the camera looks from, checked on an analytic head seen by a camera circling it.
@Suite("Reading the head from depth frames")
struct HeadViewerTests {
    typealias Shape = @Sendable (SIMD3<Double>) -> Double
    static let camera = CameraIntrinsics(fx: 120, fy: 120, cx: 60, cy: 45, width: 120, height: 90)

    /// An egg of a head in the head frame (x the right ear, y the face, z the crown) with a
    /// nose and two ears, so that every turn shows in its depth.
    static let head: Shape = { p in
        let egg = (length(p / SIMD3(0.06, 0.07, 0.06)) - 1) * 0.06
        let nose = length(p - SIMD3(0, 0.07, -0.012)) - 0.015
        let ears = min(length(p - SIMD3(0.06, 0, -0.006)), length(p - SIMD3(-0.06, 0, -0.006))) - 0.012
        return min(egg, min(nose, ears))
    }

    /// The depth seen from `pose` by sphere tracing, kept from 0.2 m to 0.6 m.
    static func depth(from pose: RigidTransform) -> DepthImage {
        var pixels = [Float](repeating: .nan, count: camera.width * camera.height)
        for y in 0..<camera.height {
            for x in 0..<camera.width {
                let ray = SIMD3((Double(x) - camera.cx) / camera.fx, (Double(y) - camera.cy) / camera.fy, 1)
                let stretch = length(ray)
                var z = 0.1
                for _ in 0..<100 {
                    let d = head(pose.apply(ray * z))
                    if abs(d) < 1e-6 || z > 0.6 { break }
                    z += d / stretch
                }
                // Nearer than 0.2 m the TrueDepth camera measures nothing.
                if z >= 0.2, z < 0.6, abs(head(pose.apply(ray * z))) < 1e-5 { pixels[y * camera.width + x] = Float(z) }
            }
        }
        return DepthImage(width: camera.width, height: camera.height, pixels: pixels)
    }

    /// The camera `distance` from the head's centre at an azimuth (face 90°), level with it.
    static func pose(azimuth: Double, distance: Double = 0.3) -> RigidTransform {
        let a = azimuth * Double.pi / 180
        return RigidTransform.camera(at: SIMD3(cos(a), sin(a), 0.1) * distance, lookingAt: .zero, up: SIMD3(0, 0, 1))
    }

    static func frame(_ pose: RigidTransform, at t: Double) -> RGBDFrame {
        let color = RGBAImage(width: camera.width, height: camera.height, repeating: RGBA8(gray: 128))
        return RGBDFrame(timestamp: t, color: color, depth: depth(from: pose), colorIntrinsics: camera, depthIntrinsics: camera)
    }

    static func viewer() -> HeadViewer {
        var options = ReconstructionOptions()
        options.threads = 1
        var reconstructor = MarkerlessReconstructor(options: options)
        reconstructor.usesColour = false
        return HeadViewer(reconstructor: reconstructor, trackEvery: 1, pixelStep: 2, minimumPoints: 150)
    }

    static func angle(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
        acos(max(-1, min(1, dot(normalized(a), normalized(b))))) * 180 / Double.pi
    }

    @Test func goingRoundFromTheFaceTheCameraIsPlacedWhereItIs() {
        // From the face past the left ear: the egg's back beyond is a perfect ellipsoid whose
        // depth fixes no turn at all (a real head's, and the simulator's, are not).
        let viewer = Self.viewer()
        var worst = 0.0, placed = 0
        for step in 0..<30 {
            let pose = Self.pose(azimuth: 90 + Double(step) * 4)
            let view = viewer.view(Self.frame(pose, at: Double(step) / 30), index: step)
            #expect(view.box != nil)
            #expect(view.missingDepth < 0.3)
            guard let seen = view.camera else { continue }
            placed += 1
            worst = max(worst, Self.angle(seen, pose.translation))
        }
        #expect(placed >= 28, "placed \(placed) of 30")
        // The head frame is the first view's, whose centre is the sphere fitted to it: a few
        // degrees off the egg's own centre.
        #expect(worst < 10, "camera direction off by up to \(worst)°")
    }

    /// A phone stepped 6 cm back between two tracked frames (as on "too close") is beyond the
    /// tracking's reach from where it was; started again from the head seen in the frame, it is
    /// placed. The reconstruction that measures does not start again so.
    @Test func aPhoneSteppedBackIsFoundAgainFromTheHeadInView() throws {
        var options = ReconstructionOptions()
        options.threads = 1
        var reconstructor = MarkerlessReconstructor(options: options)
        reconstructor.usesColour = false
        reconstructor.sample(every: 2, needing: 150)
        let poses = [Self.pose(azimuth: 90), Self.pose(azimuth: 93), Self.pose(azimuth: 96, distance: 0.36)]
        for recentres in [false, true] {
            let tracker = MarkerlessTracker(reconstructor, recentresWhenLost: recentres)
            let outcomes = poses.enumerated().map { tracker.add(Self.frame($0.element, at: Double($0.offset) / 10), index: $0.offset) }
            guard case .placed(let pose) = outcomes[2] else {
                #expect(!recentres, "the stepped-back frame is found again from the head in view")
                continue
            }
            #expect(recentres, "from its last pose the tracking does not reach 6 cm back")
            let centre = try #require(tracker.region?.centre)
            let truth = HeadViewer.headFrame(
                (poses[0].inverse * poses[2]).translation - centre)
            let placed = HeadViewer.headFrame(pose.worldFromCamera.translation - centre)
            #expect(Self.angle(placed, truth) < 3 && abs(length(placed) - length(truth)) < 0.01)
        }
    }

    @Test func theBoxFollowsTheHeadAndTheDistanceItsFront() throws {
        let viewer = Self.viewer()
        let view = viewer.view(Self.frame(Self.pose(azimuth: 90), at: 0), index: 0)
        let box = try #require(view.box)
        // The head's 110 mm wide outline at 0.3 m spans about 45 px of 120 about the middle.
        #expect(box.minX < 60 && box.maxX > 60 && box.minY < 45 && box.maxY > 45)
        #expect((30...70).contains(box.maxY - box.minY), "box \(box)")
        let distance = try #require(view.distance)
        #expect(abs(distance - (0.3 - 0.07)) < 0.02, "distance \(distance)")
        #expect(view.placed == true)
        // Aimed beside the head, its box lies to one side of the picture.
        let aside = RigidTransform.camera(at: SIMD3(0, 0.3, 0.03), lookingAt: SIMD3(0.07, 0, 0.03), up: SIMD3(0, 0, 1))
        let off = viewer.view(Self.frame(aside, at: 0.1), index: 1)
        if let b = off.box { #expect(b.minY > 45 || b.maxY < 45, "box \(b)") }
    }

    @Test func upCloseTheMiddleLacksDepth() {
        let viewer = Self.viewer()
        let view = viewer.view(Self.frame(Self.pose(azimuth: 90, distance: 0.14), at: 0), index: 0)
        // The sensor (here the tracer) starts at 0.1 m: the nose and face fall inside it.
        #expect(view.missingDepth > 0.3, "missing \(view.missingDepth)")
        #expect(HeadViewer.headFrame(SIMD3(1, 2, 3)) == SIMD3(-2, -3, 1))
    }
}
