import Geometry

/// Joint Levenberg–Marquardt refinement of keyframe poses and marker corners on image and
/// depth residuals together.
///
/// Each corner seen in a keyframe contributes its reprojection error (pixels, two rows) and,
/// when it was lifted from depth, its depth error along the optical axis (one row). The two
/// are complementary: the image fixes where the corner lies across the view, the depth how
/// far away it is, so no information is counted twice (a full 3D residual would repeat the
/// image's lateral information with the depth's noise). Both are whitened by their noise and
/// pass through Huber's loss, capped so that gross outliers drop out.
///
/// The normal equations are solved by eliminating the poses (a 6x6 block each) onto the
/// corners: a cap has at most a few hundred corners, so the reduced system is small and dense
/// however many keyframes there are. The first keyframe stays fixed (it defines the frame).
struct JointBundleAdjustment {
    var iterations = 8
    /// Noise of a detected corner, pixels.
    var pixelSigma = 0.3
    /// Factor on each observation's own depth uncertainty (its `depthSigma`, from the sensor's
    /// noise at that distance and angle).
    var depthSigmaScale = 1.0
    /// Whitened residual beyond which Huber's loss turns linear.
    var huberDelta = 2.0
    /// Whitened residuals beyond this are ignored (constant cost).
    var rejectBeyond = 12.0
    /// Whether the focal length is estimated too: one scale for fx and fy, since the corners'
    /// pixels and their metric depth fix it once the camera has turned around the map.
    var estimatesFocal = false
    /// How far the focal length may be from the factory value a priori (relative, one sigma).
    var focalPriorSigma = 0.05
    /// Whether the principal point is estimated too. Views that differ mostly by turning
    /// the camera hardly tell a shifted centre from a turned camera, so this pays on a board
    /// seen from many tilts more than on a walk around a head.
    var estimatesPrincipalPoint = false
    /// How far the principal point may be from the factory value a priori (pixels, one sigma).
    var principalPointPriorSigma = 20.0
    /// Whether the first radial distortion term is estimated too (on top of the one the
    /// pictures were corrected with): a board filling the picture from many views supports it.
    var estimatesDistortion = false
    /// How far k1 may be from the recorded value a priori (one sigma).
    var distortionPriorSigma = 0.2

    /// Whether any camera parameter is estimated: the normal equations then carry the camera
    /// vector (focal scale, principal point shift in x and y, k1) as a last block of four.
    var estimatesCamera: Bool { estimatesFocal || estimatesPrincipalPoint || estimatesDistortion }
    /// 1 for the camera parameters estimated, 0 for those held.
    var active: SIMD4<Double> {
        SIMD4(estimatesFocal ? 1 : 0, estimatesPrincipalPoint ? 1 : 0, estimatesPrincipalPoint ? 1 : 0, estimatesDistortion ? 1 : 0)
    }
    /// The camera parameters' prior standard deviations.
    var priorSigmas: SIMD4<Double> {
        SIMD4(focalPriorSigma, principalPointPriorSigma, principalPointPriorSigma, distortionPriorSigma)
    }
    /// The camera vector of the recorded camera: focal scale 1, no shift, no added distortion.
    static let recorded = SIMD4<Double>(1, 0, 0, 0)

    /// What a refinement found.
    struct Outcome {
        /// Robust cost before and after.
        var before: Double
        var after: Double
        /// The focal length over the factory value, and its standard deviation (1 and 0 when
        /// the focal length was held).
        var focalScale = 1.0
        var focalScaleSigma = 0.0
        /// The principal point minus the factory one (pixels), and its standard deviations
        /// (zero when it was held).
        var principalPointShift = SIMD2<Double>.zero
        var principalPointSigma = SIMD2<Double>.zero
        /// The first radial term added to the pictures' own, and its standard deviation.
        var k1 = 0.0
        var k1Sigma = 0.0
    }

    /// What the loop moves: the poses (camera from map), the corners and the camera vector.
    private struct Estimate {
        var poses: [RigidTransform]
        var points: [SIMD3<Double>]
        var camera: SIMD4<Double>
    }

    /// One corner seen in one keyframe.
    struct Sighting {
        var point: Int
        var pixel: SIMD2<Double>
        /// Depth of the lifted corner, or NaN for image-only observations.
        var depth: Double
        /// The depth's standard deviation, metres.
        var depthSigma: Double
    }

    /// Refines in place; returns the robust cost before and after, and the focal scale.
    @discardableResult
    func refine(keyframes: inout [Keyframe], map: inout MarkerMap, intrinsics factory: CameraIntrinsics) -> Outcome {
        let ids = map.ids
        guard keyframes.count >= 2, !ids.isEmpty else { return Outcome(before: 0, after: 0) }
        var slot: [Int: Int] = [:]
        for (i, id) in ids.enumerated() { slot[id] = i }
        var points = ids.flatMap { map.corners[$0]! }
        var poses = keyframes.map(\.mapFromCamera.inverse)
        let sightings: [[Sighting]] = keyframes.map { frame in
            frame.observations.flatMap { o -> [Sighting] in
                guard let s = slot[o.id] else { return [] }
                return (0..<4).map {
                    Sighting(
                        point: s * 4 + $0, pixel: o.pixels[$0], depth: o.fromDepth && o.depthSigma > 0 ? o.corners[$0].z : .nan,
                        depthSigma: o.depthSigma * depthSigmaScale)
                }
            }
        }
        let minimised = LevenbergMarquardt(iterations: iterations).minimise(
            from: Estimate(poses: poses, points: points, camera: Self.recorded),
            cost: { cost($0.poses, $0.points, sightings, factory, $0.camera) },
            linearise: { linearise($0.poses, $0.points, sightings, factory, $0.camera) },
            step: { system, from, lambda in
                guard let step = solve(system, lambda: lambda) else { return nil }
                var next = from
                for f in 1..<from.poses.count { next.poses[f] = update(from.poses[f], step.poses[f]) }
                for j in from.points.indices { next.points[j] += step.points[j] }
                next.camera = from.camera + step.camera
                return next
            },
            isAdmissible: { next in
                let camera = next.camera
                return camera.x > 0.5 && camera.x < 2 && abs(camera.y) < Double(factory.width) / 4
                    && abs(camera.z) < Double(factory.height) / 4 && abs(camera.w) < 1
            })
        (poses, points) = (minimised.state.poses, minimised.state.points)
        let camera = minimised.state.camera
        let (initial, current) = (minimised.initialCost, minimised.cost)
        for f in keyframes.indices { keyframes[f].mapFromCamera = poses[f].inverse }
        for (i, id) in ids.enumerated() { map.corners[id] = Array(points[(i * 4)..<(i * 4 + 4)]) }
        var outcome = Outcome(
            before: initial, after: current, focalScale: camera.x, principalPointShift: SIMD2(camera.y, camera.z), k1: camera.w)
        if estimatesCamera {
            let sigmas = cameraSigmas(linearise(poses, points, sightings, factory, camera)) * active
            outcome.focalScaleSigma = sigmas.x
            outcome.principalPointSigma = SIMD2(sigmas.y, sigmas.z)
            outcome.k1Sigma = sigmas.w
        }
        return outcome
    }

    /// The intrinsics with the camera vector applied: focal length scaled, centre shifted,
    /// k1 added.
    static func adjusted(_ k: CameraIntrinsics, _ camera: SIMD4<Double>) -> CameraIntrinsics {
        CameraIntrinsics(
            fx: k.fx * camera.x, fy: k.fy * camera.x, cx: k.cx + camera.y, cy: k.cy + camera.z, width: k.width, height: k.height,
            distortion: RadialDistortion(k1: camera.w))
    }

    /// Applies a camera-frame twist: `y ← y + ω × y + v` to first order.
    func update(_ pose: RigidTransform, _ twist: Vector6) -> RigidTransform {
        let omega = SIMD3(twist.values[0], twist.values[1], twist.values[2])
        let angle = length(omega)
        let rotation = angle > 0 ? Rotation3(axis: omega, angle: angle) : .identity
        let delta = RigidTransform(rotation: rotation, translation: SIMD3(twist.values[3], twist.values[4], twist.values[5]))
        return delta * pose
    }

    // MARK: Residuals

    /// Whitened residual rows of one sighting with their Huber weights, through `body`;
    /// `factory` is the recorded camera (its pinhole part: the pictures' own distortion is
    /// already removed), `camera` the focal scale, centre shift and added k1 applied to it.
    /// The camera gradient has zeros for the parameters held.
    @inline(__always)
    func rows(
        _ y: SIMD3<Double>, _ s: Sighting, _ factory: CameraIntrinsics, _ camera: SIMD4<Double>,
        _ body: (_ residual: Double, _ gradient: SIMD3<Double>, _ cameraGradient: SIMD4<Double>, _ weight: Double) -> Void
    ) {
        guard y.z > 1e-6 else { return }
        let iz = 1 / y.z
        let fx = factory.fx * camera.x, fy = factory.fy * camera.x
        let xn = y.x * iz, yn = y.y * iz, r2 = xn * xn + yn * yn, k = camera.w
        let radial = 1 + k * r2
        let du = (fx * xn * radial + factory.cx + camera.y - s.pixel.x) / pixelSigma
        let dv = (fy * yn * radial + factory.cy + camera.z - s.pixel.y) / pixelSigma
        let wp = huberWeight((du * du + dv * dv).squareRoot())
        if wp > 0 {
            let on = active / pixelSigma
            // u = fx·xn·(1 + k r²) + cx: through xn and yn to the camera-frame point.
            let dxn = SIMD3(iz, 0, -xn * iz), dyn = SIMD3(0, iz, -yn * iz)
            let uGradient = fx * ((radial + 2 * k * xn * xn) * dxn + 2 * k * xn * yn * dyn)
            let vGradient = fy * (2 * k * xn * yn * dxn + (radial + 2 * k * yn * yn) * dyn)
            body(du, uGradient / pixelSigma, SIMD4(factory.fx * xn * radial, 1, 0, fx * xn * r2) * on, wp)
            body(dv, vGradient / pixelSigma, SIMD4(factory.fy * yn * radial, 0, 1, fy * yn * r2) * on, wp)
        }
        if s.depth.isFinite {
            let dz = (y.z - s.depth) / s.depthSigma
            let wd = huberWeight(abs(dz))
            if wd > 0 { body(dz, SIMD3(0, 0, 1 / s.depthSigma), .zero, wd) }
        }
    }

    func huberWeight(_ r: Double) -> Double {
        r <= huberDelta ? 1 : r < rejectBeyond ? huberDelta / r : 0
    }

    func huberCost(_ r: Double) -> Double {
        let capped = min(r, rejectBeyond)
        return capped <= huberDelta ? capped * capped : 2 * huberDelta * capped - huberDelta * huberDelta
    }

    func cost(
        _ poses: [RigidTransform], _ points: [SIMD3<Double>], _ sightings: [[Sighting]], _ factory: CameraIntrinsics, _ camera: SIMD4<Double>
    ) -> Double {
        let k = Self.adjusted(factory, camera)
        let prior = (camera - Self.recorded) / priorSigmas * active
        var total = (prior * prior).sum()
        for (f, list) in sightings.enumerated() {
            for s in list {
                let y = poses[f].apply(points[s.point])
                guard y.z > 1e-6, let pixel = k.project(y) else { total += huberCost(rejectBeyond); continue }
                let du = (pixel.x - s.pixel.x) / pixelSigma
                let dv = (pixel.y - s.pixel.y) / pixelSigma
                total += huberCost((du * du + dv * dv).squareRoot())
                if s.depth.isFinite { total += huberCost(abs(y.z - s.depth) / s.depthSigma) }
            }
        }
        return total
    }
}

/// The camera vector's length: focal scale, principal point shift x and y, added k1.
let cameraSize = 4

/// Six numbers: a pose gradient or step (rotation first, then translation).
struct Vector6 {
    var values = [Double](repeating: 0, count: 6)
}
