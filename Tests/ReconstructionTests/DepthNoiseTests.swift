import Foundation
import Geometry
import Imaging
import Markers
import Testing

@testable import Reconstruction

/// The sensor's depth noise as the reconstruction weighs it.
struct DepthNoiseModelTests {
    let model = DepthNoiseModel(pixelSigmaAt40cm: 0.001, correlatedPixels: 9, floor: 0.0001)

    @Test func pixelNoiseGrowsWithTheSquareOfTheDistanceAndAtGrazingViews() {
        #expect(abs(model.pixelSigma(depth: 0.4) - 0.001) < 1e-12)
        #expect(abs(model.pixelSigma(depth: 0.8) / model.pixelSigma(depth: 0.4) - 4) < 1e-12)
        #expect(abs(model.pixelSigma(depth: 0.4, cosine: 0.5) - 0.002) < 1e-12)
        // Past the limit the angle counts as the limit.
        #expect(model.pixelSigma(depth: 0.4, cosine: 0.01) == model.pixelSigma(depth: 0.4, cosine: 0.25))
    }

    @Test func aFittedPlaneAveragesCorrelatedPixelsAndExtrapolatesToCorners() {
        let centre = model.planePointSigma(depth: 0.4, cosine: 1, pixels: 900, leverage: 0)
        // 900 pixels sharing errors in nines are 100 independent ones: a tenth of the pixel's noise.
        #expect(abs(centre - (0.0001 * 0.0001 + 0.0001 * 0.0001).squareRoot()) < 1e-12)
        let corner = model.planePointSigma(depth: 0.4, cosine: 1, pixels: 900, leverage: 5 / 900.0)
        #expect(corner > 2 * centre)
        #expect(model.planePointSigma(depth: 0.4, cosine: 1, pixels: 0, leverage: 0) == .infinity)
        // However many pixels, the floor stays.
        #expect(abs(model.planePointSigma(depth: 0.4, cosine: 1, pixels: 10_000_000, leverage: 0) - 0.0001) < 1e-7)
    }

    @Test func liftedMarkersCarryTheirDepthUncertainty() throws {
        let k = CameraIntrinsics(fx: 300, fy: 300, cx: 80, cy: 60, width: 160, height: 120)
        // The same 60 px marker head-on at 0.35 m and at 1 m (bigger), and tilted 60° at 1 m.
        func lifted(distance: Double, tilt: Double) throws -> MarkerObservation {
            let h = 0.1 * distance
            let rotation = Rotation3(axis: SIMD3(1, 0, 0), angle: tilt)
            let centre = SIMD3(0, 0, distance)
            let corners = [SIMD3(-h, h, 0), SIMD3(h, h, 0), SIMD3(h, -h, 0), SIMD3(-h, -h, 0)].map { rotation.apply($0) + centre }
            let normal = rotation.apply(SIMD3(0, 0, 1))
            var depth = DepthImage(width: k.width, height: k.height, repeating: .nan)
            for y in 0..<k.height {
                for x in 0..<k.width {
                    depth[x, y] = Float(dot(normal, centre) / dot(normal, SIMD3((Double(x) - k.cx) / k.fx, (Double(y) - k.cy) / k.fy, 1)))
                }
            }
            var scratch: [SIMD3<Double>] = []
            let lifter = MarkerLifter(markerSide: 2 * h)
            let out = lifter.lift(
                [DetectedMarker(id: 1, corners: corners.map { k.project($0)! })], depth: depth,
                colorIntrinsics: k, depthIntrinsics: k, scratch: &scratch)
            return try #require(out.first)
        }
        let near = try lifted(distance: 0.35, tilt: 0), far = try lifted(distance: 1, tilt: 0), oblique = try lifted(distance: 1, tilt: 1.05)
        #expect(near.fromDepth && far.fromDepth && oblique.fromDepth)
        // Same pixels, so the ratio is the squared distances' (the floor aside).
        let ratio = far.depthSigma / near.depthSigma
        #expect(ratio > 6 && ratio < (1 / 0.35) * (1 / 0.35) + 0.1, "ratio \(ratio)")
        #expect(oblique.depthSigma > 1.5 * far.depthSigma)
        #expect(near.depthSigma > 0.0001 && near.depthSigma < 0.0005)
    }
}

/// A flat board of twelve 95.5 mm tags seen from a metre: where the depth of a corner is worth
/// millimetres, the poses must come from the pictures.
struct NoiseAwareBundleAdjustmentTests {
    let k = CameraIntrinsics(fx: 590, fy: 590, cx: 320, cy: 240, width: 640, height: 480)

    func board() -> MarkerMap {
        var map = MarkerMap()
        for row in 0..<3 {
            for column in 0..<4 {
                let c = SIMD3(-0.186 + 0.124 * Double(column), 0.124 - 0.124 * Double(row), 0)
                let h = 0.04775
                map.corners[row * 4 + column] = [SIMD3(-h, h, 0), SIMD3(h, h, 0), SIMD3(h, -h, 0), SIMD3(-h, -h, 0)].map { $0 + c }
            }
        }
        return map
    }

    /// Poses (after moving the map onto the board) and the map's largest distance from the
    /// board's plane, after the joint adjustment of twelve views 0.2 px and 2.5 mm noisy, with
    /// the depth noise declared as it is or claimed to be 0.3 mm. Twelve views of a board leave
    /// about 0.1° of pose uncertainty from the pictures alone.
    func refine(
        declaredDepthSigma: Double, depthNoise: Double = 0.0025, pixelNoise: Double = 0.2
    ) -> (rotation: Double, position: Double, offPlane: Double) {
        let truth = board()
        var rng = Xoshiro256(seed: 7)
        func gaussian() -> Double {
            let u = max(1e-12, Double.random(in: 0..<1, using: &rng)), v = Double.random(in: 0..<1, using: &rng)
            return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
        }
        var keyframes: [Keyframe] = [], poses: [RigidTransform] = []
        for f in 0..<12 {
            let azimuth = 0.4 * sin(Double(f) * 0.9), elevation = 0.2 * sin(Double(f) * 1.7 + 0.5)
            let eye = SIMD3(sin(azimuth) * cos(elevation), sin(elevation), cos(azimuth) * cos(elevation))
            let pose = RigidTransform.camera(at: eye, lookingAt: .zero, up: SIMD3(0, 1, 0))
            poses.append(pose)
            let observations = truth.ids.map { id -> MarkerObservation in
                let corners = truth.corners[id]!.map { pose.inverse.apply($0) }
                let pixels = corners.map { k.project($0)! + pixelNoise * SIMD2(gaussian(), gaussian()) }
                // The lifted corners lie on the rays of their pixels at a noisy depth.
                let lifted = zip(corners, pixels).map { corner, pixel in
                    let z = corner.z + depthNoise * gaussian()
                    return SIMD3((pixel.x - k.cx) / k.fx * z, (pixel.y - k.cy) / k.fy * z, z)
                }
                return MarkerObservation(id: id, pixels: pixels, corners: lifted, fromDepth: true, depthSigma: declaredDepthSigma)
            }
            keyframes.append(Keyframe(frameIndex: f, mapFromCamera: pose, observations: observations))
        }
        var map = truth
        JointBundleAdjustment(iterations: 20).refine(keyframes: &keyframes, map: &map, intrinsics: k)
        // Errors after moving the map onto the board (as a benchmark against a printed board does).
        let corners = map.ids.flatMap { map.corners[$0]! }
        let fit = try? RigidAlignment.fit(from: corners, to: truth.ids.flatMap { truth.corners[$0]! })
        let truthFromMap = fit?.transform ?? .identity
        var rotation = 0.0, position = 0.0
        for (keyframe, pose) in zip(keyframes, poses) {
            let aligned = truthFromMap * keyframe.mapFromCamera
            rotation = max(rotation, (aligned.rotation.inverse * pose.rotation).angle * 180 / Double.pi)
            position = max(position, length(aligned.translation - pose.translation))
        }
        let centre = corners.reduce(SIMD3<Double>.zero, +) / Double(corners.count)
        let normal = truthFromMap.rotation.inverse.apply(SIMD3(0, 0, 1))
        let offPlane = corners.map { abs(dot($0 - centre, normal)) }.max() ?? 0
        return (rotation, position, offPlane)
    }

    @Test func declaredNoiseKeepsPosesAndTheBoardTrue() {
        let honest = refine(declaredDepthSigma: 0.0025)
        #expect(honest.rotation < 0.4 && honest.position < 0.006, "\(honest)")
        #expect(honest.offPlane < 0.001, "\(honest)")
        // Claiming sub-millimetre depth lets the depth noise bend the board and move the poses.
        let overTrusting = refine(declaredDepthSigma: 0.0003)
        #expect(overTrusting.offPlane > honest.offPlane && overTrusting.rotation > honest.rotation, "\(overTrusting) vs \(honest)")
    }
}
