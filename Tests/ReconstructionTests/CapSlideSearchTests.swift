import Foundation
import Geometry
import Imaging
import Recording
import Synchronization
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
    static let depths: [DepthImage] = views.map {
        SurfaceRegistrationTests.depth(of: SurfaceRegistrationTests.head, from: $0.pose, camera: camera)
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

    /// A sticker 20 mm square seen head-on at 0.3 m: its depth is left out, grown by the paper's
    /// border, and every other pixel is kept as it was.
    @Test func theStickersDepthIsLeftOutAndNothingElse() {
        let k = CameraIntrinsics(fx: 125, fy: 125, cx: 79.5, cy: 59.5, width: 160, height: 120)
        let flat = DepthImage(width: 160, height: 120, pixels: [Float](repeating: 0.3, count: 160 * 120))
        let kept = KeptDepth(keyframe: 0, timestamp: 0, markerPose: .identity, depth: flat, intrinsics: k)
        // The kept picture is the frame's every fourth pixel; the square in its camera frame.
        let c = kept.intrinsics
        let square = [SIMD3(-0.01, -0.01, 0.3), SIMD3(0.01, -0.01, 0.3), SIMD3(0.01, 0.01, 0.3), SIMD3(-0.01, 0.01, 0.3)]
        let masked = kept.withoutStickers([square, [SIMD3(0, 0, -1)]])  // the second: behind the camera, ignored
        let half = 0.01 * KeptDepth.stickerGrowth * c.fx / 0.3  // the grown square's half side, small pixels
        var left = 0
        for v in 0..<masked.depth.height {
            for u in 0..<masked.depth.width {
                let offset = SIMD2(abs(Double(u) - c.cx), abs(Double(v) - c.cy))
                let value = masked.depth.pixels[v * masked.depth.width + u]
                if offset.x < half - 0.5, offset.y < half - 0.5 { #expect(value.isNaN, "(\(u), \(v)) lies on the sticker") }
                if offset.x > half + 0.5 || offset.y > half + 0.5 { #expect(value == 0.3, "(\(u), \(v)) is off the sticker") }
                if value.isNaN { left += 1 }
            }
        }
        #expect(left > 0 && Double(left) <= (2 * half + 1) * (2 * half + 1))
    }

    /// The markers stage keeps each keyframe's depth small before the camera is settled; read
    /// later with the settled camera's correction, it is what the fusion's reading would keep.
    @Test(arguments: [CameraCorrection.none, CameraCorrection(focalScale: 1.031, principalShift: SIMD2(2.5, -1.25))])
    func depthKeptBeforeTheCameraSettledIsReadWithTheSettledCamera(_ correction: CameraCorrection) {
        let depthCamera = CameraIntrinsics(fx: 250, fy: 251, cx: 159.5, cy: 119.75, width: 320, height: 240)
        let colorCamera = CameraIntrinsics(fx: 500, fy: 502, cx: 319.5, cy: 239.5, width: 640, height: 480)
        var pixels = [Float](repeating: .nan, count: 320 * 240)
        for i in pixels.indices where i % 7 != 0 { pixels[i] = 0.3 + Float(i % 320) * 1e-4 + Float(i / 320) * 2e-4 }
        let frame = RGBDFrame(
            timestamp: 3.25, color: RGBAImage(width: 640, height: 480, pixels: Array(repeating: RGBA8(r: 0, g: 0, b: 0, a: 255), count: 640 * 480)),
            depth: DepthImage(width: 320, height: 240, pixels: pixels), colorIntrinsics: colorCamera, depthIntrinsics: depthCamera)
        let pose = RigidTransform(rotation: Rotation3(axis: SIMD3(0, 1, 0), angle: 0.3), translation: SIMD3(0.01, 0, 0.2))
        let early = KeptDepth(keyframe: 4, markerPose: pose, small: SmallDepth(frame), correction: correction)
        let read = frame.correcting(correction)
        let late = KeptDepth(keyframe: 4, timestamp: read.timestamp, markerPose: pose, depth: read.depth, intrinsics: read.depthIntrinsics)
        #expect(early.intrinsics == late.intrinsics)
        #expect(early.timestamp == 3.25 && early.keyframe == 4 && early.markerPose == pose)
        #expect(early.depth.width == late.depth.width && early.depth.height == late.depth.height)
        #expect(zip(early.depth.pixels, late.depth.pixels).allSatisfy { $0.bitPattern == $1.bitPattern })
        if correction != .none {
            #expect(early.intrinsics != KeptDepth(keyframe: 4, markerPose: pose, small: SmallDepth(frame), correction: .none).intrinsics)
        }
    }

    /// Keyframes the markers stage kept no small depth for (the map was built anew after a
    /// focal correction) are read again; the others are taken as kept, in keyframe order.
    @Test func keyframesWithoutKeptDepthAreReadAgain() throws {
        let frames = Self.views.indices.map { i in
            RGBDFrame(
                timestamp: Self.views[i].time, color: RGBAImage(width: 240, height: 180, pixels: Array(repeating: RGBA8(gray: 0), count: 240 * 180)),
                depth: Self.depths[i], colorIntrinsics: Self.camera, depthIntrinsics: Self.camera)
        }
        let keyframes = Self.views.indices.map { Keyframe(frameIndex: $0, mapFromCamera: Self.views[$0].pose, observations: []) }
        var small = SmallDepthStore()
        for i in frames.indices where i % 3 != 0 { small.keep(SmallDepth(frames[i]), frame: i) }
        #expect(small.count == frames.count - (frames.count + 2) / 3)
        let reads = Mutex(0)
        let kept = try Reconstructor().keptDepth(
            keyframes, smallDepth: small, camera: SettledCamera(recorded: Self.camera),
            frame: { i in
                reads.withLock { $0 += 1 }
                return frames[i]
            }, concurrentFrame: nil, isCancelled: { false })
        #expect(reads.withLock { $0 } == (frames.count + 2) / 3)
        #expect(kept.map(\.keyframe) == Array(frames.indices))
        for (i, k) in kept.enumerated() {
            let expected = KeptDepth(
                keyframe: i, timestamp: frames[i].timestamp, markerPose: Self.views[i].pose, depth: Self.depths[i], intrinsics: Self.camera)
            #expect(k.timestamp == expected.timestamp && k.intrinsics == expected.intrinsics && k.markerPose == expected.markerPose)
            #expect(zip(k.depth.pixels, expected.depth.pixels).allSatisfy { $0.bitPattern == $1.bitPattern })
        }
    }

    /// Thinning lists of points without joining them takes the points that joining them and
    /// taking every n-th would.
    @Test func thinningListsTakesEveryNthOfThemJoined() {
        var random = SplitMix64(seed: 77)
        for _ in 0..<200 {
            let lists = (0..<Int.random(in: 0...12, using: &random)).map { l in
                (0..<Int.random(in: 0...40, using: &random)).map { SIMD3(Double(l), Double($0), 0) }
            }
            let most = Int.random(in: 1...120, using: &random)
            let joined = lists.flatMap { $0 }
            let every = joined.count > most ? (joined.count + most - 1) / most : 1
            let expected = Swift.stride(from: 0, to: joined.count, by: every).map { joined[$0] }
            let thinned = CapSlideSearch.thinned(lists, toAtMost: most)
            #expect(thinned == expected)
            #expect(thinned.count <= max(most, 0) || joined.count <= most)
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
