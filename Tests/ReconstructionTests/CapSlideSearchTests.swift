import Foundation
import Geometry
import Imaging
import Testing

@testable import Reconstruction

/// Finding a cap that slid on the head, on an analytic head (an egg with a nose): views on a
/// ring round it, two a second, placed by markers that are right until the cap turns and off by
/// the turn after it (and part of the way during it).
@Suite("Finding a cap that slid on the head")
struct CapSlideSearchTests {
    static let camera = CameraIntrinsics(fx: 240, fy: 240, cx: 120, cy: 90, width: 240, height: 180)
    static let region = FusionRegion(centre: .zero, radius: 0.1)

    /// The test's pictures are small: every pixel of the kept depth.
    static let search = CapSlideSearch(pointStride: 1)

    /// Thirty-two views over 16 s, 1.2 turns round the head, rising and falling a little.
    static let views: [(time: Double, pose: RigidTransform)] = (0..<32).map { i in
        let azimuth = Double(i) * 1.2 * 2 * Double.pi / 32
        let height = 0.06 + 0.03 * sin(Double(i) * 0.7)
        let pose = RigidTransform.camera(
            at: SIMD3(0.25 * cos(azimuth), 0.25 * sin(azimuth), height), lookingAt: .zero, up: SIMD3(0, 0, 1))
        return (Double(i) * 0.5, pose)
    }

    /// The views' depth, computed once (sphere tracing is the slow part).
    static let depths: [DepthImage] = views.map { depth(from: $0.pose) }

    /// The head's depth seen from `pose`, by sphere tracing.
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

    /// The kept depth of every view, placed by markers on a cap that turned by `turn` on the
    /// head between `start` and `start + 1` seconds (linearly, as far as the markers show).
    static func kept(turn: Double, axis: SIMD3<Double>, start: Double) -> [KeptDepth] {
        views.indices.map { i in
            let (time, truth) = views[i]
            let share = min(1, max(0, time - start))
            let slid = RigidTransform(rotation: Rotation3(axis: normalized(axis), angle: share * turn * Double.pi / 180))
            return KeptDepth(
                keyframe: i, timestamp: time, markerPose: slid.inverse * truth, depth: depths[i], intrinsics: camera)
        }
    }

    @Test func theSmallCameraSeesTheSamePointsAsTheFrameItWasKeptFrom() throws {
        let k = CameraIntrinsics(fx: 500, fy: 510, cx: 319.5, cy: 241.25, width: 640, height: 480)
        var pixels = [Float](repeating: .nan, count: 640 * 480)
        for i in pixels.indices { pixels[i] = 0.3 + Float(i % 640) * 1e-4 + Float(i / 640) * 2e-4 }
        let kept = KeptDepth(
            keyframe: 0, timestamp: 0, markerPose: .identity, depth: DepthImage(width: 640, height: 480, pixels: pixels), intrinsics: k)
        #expect(kept.depth.width == 160 && kept.depth.height == 120)
        for (u, v) in [(0, 0), (17, 93), (159, 119)] {
            let (x, y) = (u * KeptDepth.step + KeptDepth.step / 2, v * KeptDepth.step + KeptDepth.step / 2)
            let z = Double(pixels[y * 640 + x])
            #expect(Double(kept.depth.pixels[v * 160 + u]) == z)
            let small = kept.intrinsics.unproject(SIMD2(Double(u), Double(v)), depth: z)
            let full = k.unproject(SIMD2(Double(x), Double(y)), depth: z)
            #expect(length(small - full) < 1e-12, "pixel (\(u), \(v)): \(small) against \(full)")
        }
    }

    @Test func aCapThatHeldStillShowsNoSlide() {
        let kept = Self.kept(turn: 0, axis: SIMD3(0, 0, 1), start: 99)
        let search = Self.search
        let poses = kept.map(\.markerPose)
        let profile = search.profile(kept, before: poses, after: poses, region: Self.region, tracked: Self.region)
        #expect(!profile.isEmpty)
        #expect(search.best(profile, about: .zero) == nil, "gains \(profile.map { ($0.gain * 1000).rounded() / 1000 })")
    }

    /// The search on the one map's poses, which finds the moment roughly (a second search on
    /// each part's own map, which needs the markers, sharpens it).
    @Test(arguments: [(8.0, SIMD3(0.0, 0.0, 1.0), 7.0), (8.0, SIMD3(0.3, -0.2, 1.0), 5.5), (12.0, SIMD3(0.0, 0.2, 1.0), 9.0)])
    func aCapThatTurnedIsFoundRoughlyWhenAndHowFar(turn: Double, axis: SIMD3<Double>, start: Double) throws {
        let kept = Self.kept(turn: turn, axis: axis, start: start)
        let search = Self.search
        let poses = kept.map(\.markerPose)
        let profile = search.profile(kept, before: poses, after: poses, region: Self.region, tracked: Self.region)
        let found = try #require(search.best(profile, about: .zero))
        #expect(abs(found.moment - start) <= 2, "found at \(found.moment) s")
        let truth = RigidTransform(rotation: Rotation3(axis: normalized(axis), angle: turn * Double.pi / 180))
        let error = SurfaceRegistrationTests.distance(found.correction, truth)
        #expect(error < 2.5, "the correction is \(error) mm from the turn")
        let size = CapSlide.size(of: found.correction, about: .zero)
        #expect(abs(size.degrees - turn) < 1.5, "\(size.degrees)° for \(turn)°")
        #expect(found.after > found.before + search.leastGain)
    }

    /// Given the turn, the views are laid one by one: those while the cap moved are left out,
    /// and nothing before or after it much further than the second settling at each end.
    @Test(arguments: [7.0, 9.5])
    func theSlidesBeginningAndEndAreFoundViewByView(start: Double) throws {
        let axis = SIMD3(0.1, 0.2, 1.0)
        let kept = Self.kept(turn: 10, axis: axis, start: start)
        let turn = RigidTransform(rotation: Rotation3(axis: normalized(axis), angle: 10 * Double.pi / 180))
        let poses = kept.map(\.markerPose)
        // A moment 1.5 s early, as the search may give it.
        let (from, to) = Self.search.bounds(
            kept, before: poses, after: poses, correction: turn, moment: start - 1.5, region: Self.region, tracked: Self.region)
        #expect(from <= start && from >= start - 1.5, "set aside from \(from) s")
        #expect(to >= start + 1 && to <= start + 2.5, "until \(to) s")
    }
}
