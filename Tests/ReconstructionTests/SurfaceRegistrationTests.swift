import Geometry
import Imaging
import Testing

@testable import Reconstruction

/// Placing a depth frame on a fused surface, against analytic shapes: an egg-shaped head with
/// a nose (every direction fixed) and a ball (turns about its centre not fixed at all).
@Suite("Registering a frame on the fused surface")
struct SurfaceRegistrationTests {
    typealias Shape = @Sendable (SIMD3<Double>) -> Double

    /// An ellipsoid of 75 × 55 × 45 mm half-axes with a 20 mm ball for a nose (signed distance
    /// close to the surface, which is all the volume keeps).
    static let head: Shape = { p in
        let axes = SIMD3(0.075, 0.055, 0.045)
        let egg = (length(p / axes) - 1) * 0.05
        let nose = length(p - SIMD3(0, 0.057, 0)) - 0.02
        return min(egg, nose)
    }
    static let ball: Shape = { p in length(p) - 0.065 }

    static func volume(_ shape: Shape) -> TSDFVolume {
        let volume = TSDFVolume(voxelSize: 0.001, truncation: 0.004)
        volume.fill(from: SIMD3(repeating: -0.09), to: SIMD3(repeating: 0.09), weight: 5, signedDistance: shape)
        return volume
    }

    static let camera = CameraIntrinsics(fx: 120, fy: 120, cx: 60, cy: 45, width: 120, height: 90)

    /// The depth `camera` at `pose` sees of `shape`, by sphere tracing (`shape` is a signed
    /// distance near its surface, not beyond it: steps are taken along the ray, from 0.1 m to
    /// 0.6 m of depth). Shared by the tests of the slide search.
    static func depth(of shape: Shape, from pose: RigidTransform, camera: CameraIntrinsics = camera) -> DepthImage {
        var pixels = [Float](repeating: .nan, count: camera.width * camera.height)
        for y in 0..<camera.height {
            for x in 0..<camera.width {
                let ray = SIMD3((Double(x) - camera.cx) / camera.fx, (Double(y) - camera.cy) / camera.fy, 1)
                let stretch = length(ray)
                var z = 0.1
                // Rays that graze the surface stop short and are left empty.
                for _ in 0..<100 {
                    let d = shape(pose.apply(ray * z))
                    if abs(d) < 1e-6 || z > 0.6 { break }
                    z += d / stretch
                }
                if z < 0.6, abs(shape(pose.apply(ray * z))) < 1e-5 { pixels[y * camera.width + x] = Float(z) }
            }
        }
        return DepthImage(width: camera.width, height: camera.height, pixels: pixels)
    }

    static let truePose = RigidTransform.camera(at: SIMD3(0.18, 0.22, 0.1), lookingAt: .zero, up: SIMD3(0, 0, 1))
    static let region = FusionRegion(centre: .zero, radius: 0.1)
    /// Every second pixel: the test's picture is small.
    static let registration = SurfaceRegistration(pixelStep: 2)

    static func offset(_ degrees: Double, axis: SIMD3<Double>, shift: SIMD3<Double>) -> RigidTransform {
        RigidTransform(rotation: Rotation3(axis: normalized(axis), angle: degrees * Double.pi / 180), translation: shift)
    }

    /// How far `a` and `b` place points of the head's sphere apart, millimetres.
    static func distance(_ a: RigidTransform, _ b: RigidTransform) -> Double {
        let probes = [SIMD3(0.07, 0, 0), SIMD3(0, 0.07, 0), SIMD3(0, 0, 0.07), SIMD3(-0.05, -0.05, 0)]
        return probes.map { length(a.apply(b.inverse.apply($0)) - $0) }.max()! * 1000
    }

    @Test func theVolumeAnswersTheShapesDistanceAndDirection() throws {
        let volume = Self.volume(Self.ball)
        for p in [SIMD3(0.066, 0.0003, 0.0001), SIMD3(-0.02, 0.0401, 0.047), SIMD3(0.0, 0.0, -0.0635)] {
            let (d, g) = try #require(volume.signedDistance(at: p))
            #expect(abs(d - Self.ball(p)) < 0.0002)
            #expect(dot(normalized(g), normalized(p)) > 0.99 && abs(length(g) - 1) < 0.05)
        }
        #expect(volume.signedDistance(at: SIMD3(0, 0, 0)) == nil, "far inside: no surface within reach")
        #expect(volume.signedDistance(at: SIMD3(0.3, 0, 0)) == nil, "never seen")
        for odd in [SIMD3(Double.nan, 0, 0), SIMD3(0, .infinity, 0), SIMD3(0, 0, 3e6), SIMD3(-2.147483648e6, 0, 0)] {
            #expect(volume.signedDistance(at: odd) == nil, "no surface and no trap at \(odd)")
        }
    }

    @Test func aFrameOffByAFewMillimetresAndDegreesIsPutBack() throws {
        let volume = Self.volume(Self.head)
        let depth = Self.depth(of: Self.head, from: Self.truePose)
        let start = Self.offset(2, axis: SIMD3(0.3, -1, 0.5), shift: SIMD3(0.0015, -0.001, 0.002)) * Self.truePose
        #expect(Self.distance(start, Self.truePose) > 3)
        let answer = Self.registration.register(depth: depth, intrinsics: Self.camera, predicted: start, volume: volume, region: Self.region)
        let placed = try #require(answer, "placed")
        #expect(Self.distance(placed.worldFromCamera, Self.truePose) < 0.3)
        #expect(placed.rms < 0.0003 && placed.improves)
        // From the true pose nothing moves and nothing improves.
        let stillAnswer = Self.registration.register(
            depth: depth, intrinsics: Self.camera, predicted: Self.truePose, volume: volume, region: Self.region)
        let still = try #require(stillAnswer, "placed")
        #expect(Self.distance(still.worldFromCamera, Self.truePose) < 0.1)
        #expect(!still.improves)
    }

    @Test func onABallTheTurnTheSurfaceCannotSeeStaysAsPredicted() throws {
        let volume = Self.volume(Self.ball)
        let depth = Self.depth(of: Self.ball, from: Self.truePose)
        // A turn about the ball's centre and a shift: the surface fixes the shift only.
        let turn = Self.offset(3, axis: SIMD3(0, 0, 1), shift: .zero)
        let start = RigidTransform(translation: SIMD3(0.002, 0, 0)) * turn * Self.truePose
        let answer = Self.registration.register(depth: depth, intrinsics: Self.camera, predicted: start, volume: volume, region: Self.region)
        let placed = try #require(answer, "placed")
        #expect(Self.distance(placed.worldFromCamera, turn * Self.truePose) < 0.3, "the shift is undone, the turn kept")
    }

    @Test func tooLittleOfTheFrameOnTheSurfaceGivesNoAnswer() {
        let volume = Self.volume(Self.head)
        let depth = Self.depth(of: Self.head, from: Self.truePose)
        let far = RigidTransform(translation: SIMD3(0.05, 0, 0)) * Self.truePose
        let answer = Self.registration.register(depth: depth, intrinsics: Self.camera, predicted: far, volume: volume, region: Self.region)
        #expect(answer == nil)
    }
}
