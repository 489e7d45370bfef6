import Foundation
import Geometry
import Testing

@testable import Reconstruction

/// Ten 14 mm markers on a dome of 7 cm radius centred 0.3 m in front of the first camera.
func domeOfMarkers() -> MarkerMap {
    var truth = MarkerMap()
    for id in 0..<10 {
        let a = Double(id) * 0.6, b = 0.3 + 0.08 * Double(id % 4)
        let normal = SIMD3(sin(b) * cos(a), sin(b) * sin(a), -cos(b))
        let centre = SIMD3(0, 0, 0.3) + 0.07 * normal
        let u = normalized(cross(normal, SIMD3(0, 1, 0))), v = cross(normal, u)
        let signs: [(Double, Double)] = [(-1, 1), (1, 1), (1, -1), (-1, -1)]
        truth.corners[id] = signs.map { (a: Double, b: Double) -> SIMD3<Double> in centre + 0.007 * (a * u + b * v) }
    }
    return truth
}

struct JointBundleAdjustmentTests {
    let k = CameraIntrinsics(fx: 300, fy: 300, cx: 160, cy: 120, width: 320, height: 240)

    /// Ten markers on a dome at 0.3 m, eight cameras around it; poses start 1 mm and 0.2° off
    /// and the map 0.5 mm off (a few pixels: the joint stage starts where the robust 3D stage
    /// leaves it). Without noise the truth comes back exactly; with deterministic noise of
    /// about 0.2 px (0.2 mm across the view here) and 0.2 mm in depth, within the noise.
    @Test(arguments: [0.0, 1.0]) func convergesToTheTruthFromAPerturbedStart(noise: Double) throws {
        let truth = domeOfMarkers()
        var poses: [RigidTransform] = []
        for f in 0..<8 {
            let angle = 0.12 * Double(f) - 0.4
            let rotation = Rotation3(axis: SIMD3(0.2, 1, 0.1), angle: angle)
            // Cameras turn about the dome's centre, keeping it in view.
            let pivot = SIMD3(0.0, 0, 0.3)
            poses.append(RigidTransform(rotation: rotation, translation: pivot - rotation.apply(pivot)))
        }
        var keyframes: [Keyframe] = []
        for (f, pose) in poses.enumerated() {
            let cameraFromMap = pose.inverse
            var observations: [MarkerObservation] = []
            for id in truth.ids {
                var pixels: [SIMD2<Double>] = [], corners: [SIMD3<Double>] = []
                for (c, p) in truth.corners[id]!.enumerated() {
                    let y = cameraFromMap.apply(p)
                    let s = Double(f * 41 + id * 7 + c)
                    pixels.append(k.project(y)! + noise * 0.2 * SIMD2(sin(s * 1.3), cos(s * 0.7)))
                    corners.append(y * (1 + noise * 0.0002 * sin(s * 2.1) / y.z))
                }
                // Every third marker of odd frames has no depth (image only).
                observations.append(MarkerObservation(id: id, pixels: pixels, corners: corners, fromDepth: !(f % 2 == 1 && id % 3 == 0)))
            }
            var start = pose
            if f > 0 {
                start = RigidTransform(
                    rotation: Rotation3(axis: SIMD3(1, 0.3, 0), angle: 0.0035) * pose.rotation,
                    translation: pose.translation + SIMD3(0.001, -0.0006, 0.0003))
            }
            keyframes.append(Keyframe(frameIndex: f, mapFromCamera: start, observations: observations))
        }
        var map = MarkerMap(corners: truth.corners.mapValues { $0.map { $0 + SIMD3(0.0005, 0, -0.0003) } })
        let cost = JointBundleAdjustment(iterations: 20).refine(keyframes: &keyframes, map: &map, intrinsics: k)
        #expect(cost.after < 0.05 * cost.before)
        let tolerance = noise == 0 ? 1e-7 : 0.0006
        for (keyframe, pose) in zip(keyframes, poses) {
            #expect(length(keyframe.mapFromCamera.translation - pose.translation) < tolerance)
            #expect((keyframe.mapFromCamera.rotation.inverse * pose.rotation).angle < 5 * tolerance)
        }
        for id in truth.ids {
            for (a, b) in zip(map.corners[id]!, truth.corners[id]!) { #expect(length(a - b) < tolerance) }
        }
        // The reprojection error falls to the level of the noise.
        var squares = 0.0, count = 0.0
        for keyframe in keyframes {
            for o in keyframe.observations {
                for c in 0..<4 {
                    let d = k.project(keyframe.mapFromCamera.inverse.apply(map.corners[o.id]![c]))! - o.pixels[c]
                    squares += (d * d).sum()
                    count += 1
                }
            }
        }
        #expect((squares / count).squareRoot() < (noise == 0 ? 1e-4 : 0.25))
    }

    @Test func grossOutliersDoNotPullTheMap() throws {
        // One camera sees a marker 2 cm off (a ghost detection): the map must ignore it.
        var truth = MarkerMap()
        for id in 0..<6 {
            let centre = SIMD3(0.02 * Double(id % 3) - 0.02, 0.02 * Double(id / 3) - 0.01, 0.3 + 0.005 * Double(id))
            truth.corners[id] = [SIMD3(-0.007, 0.007, 0), SIMD3(0.007, 0.007, 0), SIMD3(0.007, -0.007, 0), SIMD3(-0.007, -0.007, 0)].map {
                $0 + centre
            }
        }
        var keyframes: [Keyframe] = []
        for f in 0..<4 {
            let pose = RigidTransform(rotation: Rotation3(axis: SIMD3(0, 1, 0), angle: 0.05 * Double(f)), translation: SIMD3(0.01 * Double(f), 0, 0))
            let observations = truth.ids.map { id in
                let corners = truth.corners[id]!.map { pose.inverse.apply($0) + (f == 2 && id == 4 ? SIMD3(0.02, 0, 0) : .zero) }
                return MarkerObservation(id: id, pixels: corners.map { k.project($0)! }, corners: corners, fromDepth: true)
            }
            keyframes.append(Keyframe(frameIndex: f, mapFromCamera: pose, observations: observations))
        }
        var map = truth
        JointBundleAdjustment().refine(keyframes: &keyframes, map: &map, intrinsics: k)
        for id in truth.ids {
            for (a, b) in zip(map.corners[id]!, truth.corners[id]!) { #expect(length(a - b) < 1e-5) }
        }
    }
}

/// The focal length estimated with the poses and the map: a camera whose recorded focal length
/// is off by a few percent still gives the map at its true size.
struct FocalSelfCalibrationTests {
    let truthK = CameraIntrinsics(fx: 300, fy: 300, cx: 160, cy: 120, width: 320, height: 240)

    @Test(arguments: [-0.06, -0.03, 0.03, 0.06]) func theFocalLengthAndTheMapComeOutRight(error: Double) throws {
        // Ten markers on a dome at 0.3 m, cameras turning 50° about it (a walk around the head).
        let truth = domeOfMarkers()
        let recorded = CameraIntrinsics(fx: 300 * (1 + error), fy: 300 * (1 + error), cx: 160, cy: 120, width: 320, height: 240)
        var keyframes: [Keyframe] = []
        var poses: [RigidTransform] = []
        for f in 0..<10 {
            let rotation = Rotation3(axis: SIMD3(0.2, 1, 0.1), angle: 0.1 * Double(f) - 0.45)
            let pivot = SIMD3(0.0, 0, 0.3)
            let pose = RigidTransform(rotation: rotation, translation: pivot - rotation.apply(pivot))
            poses.append(pose)
            var observations: [MarkerObservation] = []
            for id in truth.ids {
                var pixels: [SIMD2<Double>] = [], corners: [SIMD3<Double>] = []
                for (c, p) in truth.corners[id]!.enumerated() {
                    let y = pose.inverse.apply(p)
                    let s = Double(f * 41 + id * 7 + c)
                    let pixel = truthK.project(y)! + 0.2 * SIMD2(sin(s * 1.3), cos(s * 0.7))
                    pixels.append(pixel)
                    // Lifted with the recorded (wrong) focal length, as the lifter does.
                    let z = y.z + 0.0002 * sin(s * 2.1)
                    corners.append(SIMD3((pixel.x - 160) / recorded.fx * z, (pixel.y - 120) / recorded.fy * z, z))
                }
                observations.append(MarkerObservation(id: id, pixels: pixels, corners: corners, fromDepth: true))
            }
            keyframes.append(Keyframe(frameIndex: f, mapFromCamera: pose, observations: observations))
        }
        // The 3D stage's map from the wrongly lifted corners of the first frame.
        var map = MarkerMap(corners: Dictionary(uniqueKeysWithValues: keyframes[0].observations.map { ($0.id, $0.corners.map(poses[0].apply)) }))
        var joint = JointBundleAdjustment(iterations: 30)
        joint.estimatesFocal = true
        let outcome = joint.refine(keyframes: &keyframes, map: &map, intrinsics: recorded)
        let estimated = recorded.fx * outcome.focalScale
        #expect(abs(estimated / truthK.fx - 1) < 0.003, "focal \(estimated) for 300 (recorded \(recorded.fx))")
        // The formal deviation for 0.3 px and 0.3 mm noise; the error stays within it.
        #expect(outcome.focalScaleSigma > 0.0005 && outcome.focalScaleSigma < 0.02, "sigma \(outcome.focalScaleSigma)")
        #expect(abs(estimated / truthK.fx - 1) < 2 * outcome.focalScaleSigma)
        // Marker sides come out at their true 14 mm.
        for id in truth.ids {
            let side = length(map.corners[id]![1] - map.corners[id]![0])
            #expect(abs(side - 0.014) < 0.0002, "marker \(id): \(side)")
        }
    }
}

/// Focal length and principal point from a flat board seen from many tilts, as a calibration
/// recording gives: the recorded camera is 3 % long in focal length and its centre 6 px right
/// and 4 px up of the truth.
struct PrincipalPointCalibrationTests {
    @Test(arguments: [false, true]) func theCentreComesBackWhenEstimated(estimated: Bool) throws {
        let truthK = CameraIntrinsics(fx: 590, fy: 590, cx: 320, cy: 240, width: 640, height: 480)
        let recorded = CameraIntrinsics(fx: 590 * 1.03, fy: 590 * 1.03, cx: 326, cy: 236, width: 640, height: 480)
        var truth = MarkerMap()
        for id in 0..<20 {
            let c = SIMD3(-0.05 + 0.025 * Double(id % 5), 0.04 - 0.025 * Double(id / 5), 0)
            let h = 0.01
            truth.corners[id] = [SIMD3(-h, h, 0), SIMD3(h, h, 0), SIMD3(h, -h, 0), SIMD3(-h, -h, 0)].map { $0 + c }
        }
        var rng = Xoshiro256(seed: 3)
        func noise() -> Double { Double.random(in: -1...1, using: &rng) }
        var keyframes: [Keyframe] = []
        for f in 0..<16 {
            let azimuth = 0.5 * sin(Double(f) * 0.7), elevation = 0.4 * sin(Double(f) * 1.3 + 0.4)
            let eye = 0.3 * SIMD3(sin(azimuth) * cos(elevation), sin(elevation), cos(azimuth) * cos(elevation))
            let roll = Rotation3(axis: normalized(-eye), angle: 0.6 * sin(Double(f) * 0.9))
            let pose = RigidTransform.camera(at: eye, lookingAt: SIMD3(0.01 * noise(), 0.01 * noise(), 0), up: roll.apply(SIMD3(0, 1, 0)))
            let observations = truth.ids.compactMap { id -> MarkerObservation? in
                let corners = truth.corners[id]!.map { pose.inverse.apply($0) }
                let pixels = corners.compactMap { truthK.project($0).map { $0 + 0.15 * SIMD2(noise(), noise()) } }
                guard pixels.count == 4 else { return nil }
                // Lifted with the recorded (wrong) camera, as the lifter does.
                let lifted = zip(corners, pixels).map { corner, pixel in
                    let z = corner.z + 0.0003 * noise()
                    return SIMD3((pixel.x - recorded.cx) / recorded.fx * z, (pixel.y - recorded.cy) / recorded.fy * z, z)
                }
                return MarkerObservation(id: id, pixels: pixels, corners: lifted, fromDepth: true, depthSigma: 0.0003)
            }
            keyframes.append(Keyframe(frameIndex: f, mapFromCamera: pose, observations: observations))
        }
        var map = MarkerMap(
            corners: Dictionary(uniqueKeysWithValues: keyframes[0].observations.map { ($0.id, $0.corners.map(keyframes[0].mapFromCamera.apply)) }))
        var joint = JointBundleAdjustment(iterations: 25)
        joint.estimatesFocal = true
        joint.estimatesPrincipalPoint = estimated
        let outcome = joint.refine(keyframes: &keyframes, map: &map, intrinsics: recorded)
        let focal = recorded.fx * outcome.focalScale
        let centre = SIMD2(recorded.cx, recorded.cy) + outcome.principalPointShift
        if estimated {
            #expect(abs(focal / truthK.fx - 1) < 0.003, "focal \(focal)")
            #expect(abs(centre.x - 320) < 1 && abs(centre.y - 240) < 1, "centre \(centre)")
            #expect(outcome.principalPointSigma.x > 0.05 && outcome.principalPointSigma.x < 2, "sigma \(outcome.principalPointSigma)")
        } else {
            // Held, the centre stays where the recording says and the estimate reports nothing of it.
            #expect(outcome.principalPointShift == .zero && outcome.principalPointSigma == .zero)
        }
    }
}
