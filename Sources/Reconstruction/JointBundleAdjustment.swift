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
    private var estimatesCamera: Bool { estimatesFocal || estimatesPrincipalPoint || estimatesDistortion }
    /// 1 for the camera parameters estimated, 0 for those held.
    private var active: SIMD4<Double> {
        SIMD4(estimatesFocal ? 1 : 0, estimatesPrincipalPoint ? 1 : 0, estimatesPrincipalPoint ? 1 : 0, estimatesDistortion ? 1 : 0)
    }
    /// The camera parameters' prior standard deviations.
    private var priorSigmas: SIMD4<Double> {
        SIMD4(focalPriorSigma, principalPointPriorSigma, principalPointPriorSigma, distortionPriorSigma)
    }
    /// The camera vector of the recorded camera: focal scale 1, no shift, no added distortion.
    private static let recorded = SIMD4<Double>(1, 0, 0, 0)

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

    /// One corner seen in one keyframe.
    private struct Sighting {
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
                return (0..<4).map { Sighting(
                    point: s * 4 + $0, pixel: o.pixels[$0], depth: o.fromDepth && o.depthSigma > 0 ? o.corners[$0].z : .nan,
                    depthSigma: o.depthSigma * depthSigmaScale) }
            }
        }
        var lambda = 1e-3
        var camera = Self.recorded
        let initial = cost(poses, points, sightings, factory, camera)
        var current = initial
        for _ in 0..<iterations {
            let system = linearise(poses, points, sightings, factory, camera)
            var improved = false
            for _ in 0..<6 {
                guard let step = solve(system, lambda: lambda) else { lambda *= 10; continue }
                var newPoses = poses, newPoints = points
                for f in 1..<poses.count { newPoses[f] = update(poses[f], step.poses[f]) }
                for j in points.indices { newPoints[j] += step.points[j] }
                let newCamera = camera + step.camera
                let candidate = cost(newPoses, newPoints, sightings, factory, newCamera)
                if candidate < current, newCamera.x > 0.5, newCamera.x < 2,
                    abs(newCamera.y) < Double(factory.width) / 4, abs(newCamera.z) < Double(factory.height) / 4, abs(newCamera.w) < 1
                {
                    poses = newPoses
                    points = newPoints
                    camera = newCamera
                    lambda = max(1e-7, lambda / 5)
                    improved = current - candidate > 1e-6 * current
                    current = candidate
                    break
                }
                lambda *= 8
            }
            guard improved else { break }
        }
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
    private func update(_ pose: RigidTransform, _ twist: Vector6) -> RigidTransform {
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
    private func rows(
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

    private func huberWeight(_ r: Double) -> Double {
        r <= huberDelta ? 1 : r < rejectBeyond ? huberDelta / r : 0
    }

    private func huberCost(_ r: Double) -> Double {
        let capped = min(r, rejectBeyond)
        return capped <= huberDelta ? capped * capped : 2 * huberDelta * capped - huberDelta * huberDelta
    }

    private func cost(
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

    // MARK: Normal equations

    /// Pose blocks per keyframe, corner blocks, and the pose–corner coupling.
    private struct System {
        var poseHessians: [[Double]]  // 6x6 per keyframe
        var poseGradients: [Vector6]
        var couplings: [[(point: Int, block: [Double])]]  // 6x3 per sighting
        var pointHessians: [[Double]]  // 3x3 per point
        var pointGradients: [SIMD3<Double>]
        /// The camera vector's entries: with itself (4x4), with each pose (6x4) and with each
        /// point (3x4); parameters held have an identity row and no gradient.
        var cameraHessian = [Double](repeating: 0, count: 16)
        var cameraGradient = SIMD4<Double>.zero
        var poseCamera: [[Double]]
        var pointCamera: [[Double]]
    }

    private func linearise(
        _ poses: [RigidTransform], _ points: [SIMD3<Double>], _ sightings: [[Sighting]], _ factory: CameraIntrinsics, _ camera: SIMD4<Double>
    ) -> System {
        var system = System(
            poseHessians: Array(repeating: Array(repeating: 0, count: 36), count: poses.count),
            poseGradients: Array(repeating: Vector6(), count: poses.count),
            couplings: Array(repeating: [], count: poses.count),
            pointHessians: Array(repeating: Array(repeating: 0, count: 9), count: points.count),
            pointGradients: Array(repeating: .zero, count: points.count),
            poseCamera: Array(repeating: Array(repeating: 0, count: 6 * cameraSize), count: poses.count),
            pointCamera: Array(repeating: Array(repeating: 0, count: 3 * cameraSize), count: points.count))
        let estimating = estimatesCamera
        if estimating {
            let on = active, weights = on / (priorSigmas * priorSigmas)
            for a in 0..<cameraSize { system.cameraHessian[a * (cameraSize + 1)] = on[a] > 0 ? weights[a] : 1 }
            system.cameraGradient = (camera - Self.recorded) * weights
        }
        var jp = [Double](repeating: 0, count: 6)
        for (f, list) in sightings.enumerated() {
            let pose = poses[f]
            let back = pose.rotation.inverse
            let fixed = f == 0
            var hpp = system.poseHessians[f], gp = system.poseGradients[f], hpc = system.poseCamera[f]
            var hcc = system.cameraHessian, gc = system.cameraGradient
            for s in list {
                let y = pose.apply(points[s.point])
                var hpx = [Double](repeating: 0, count: 18)
                var hxx = system.pointHessians[s.point], gx = system.pointGradients[s.point], hxc = system.pointCamera[s.point]
                rows(y, s, factory, camera) { r, jy, jc, w in
                    // d r / d ω = y × J_y, d r / d v = J_y, d r / d X = Rᵀ J_y.
                    let jw = cross(y, jy), jx = back.apply(jy)
                    jp[0] = jw.x; jp[1] = jw.y; jp[2] = jw.z; jp[3] = jy.x; jp[4] = jy.y; jp[5] = jy.z
                    for a in 0..<3 {
                        gx[a] += w * jx[a] * r
                        for b in 0..<3 { hxx[a * 3 + b] += w * jx[a] * jx[b] }
                    }
                    if estimating {
                        for a in 0..<cameraSize {
                            gc[a] += w * jc[a] * r
                            for b in 0..<cameraSize { hcc[a * cameraSize + b] += w * jc[a] * jc[b] }
                        }
                        for a in 0..<3 {
                            for b in 0..<cameraSize { hxc[a * cameraSize + b] += w * jx[a] * jc[b] }
                        }
                    }
                    guard !fixed else { return }
                    for a in 0..<6 {
                        gp.values[a] += w * jp[a] * r
                        for b in 0..<6 { hpp[a * 6 + b] += w * jp[a] * jp[b] }
                        for b in 0..<3 { hpx[a * 3 + b] += w * jp[a] * jx[b] }
                        if estimating { for c in 0..<cameraSize { hpc[a * cameraSize + c] += w * jp[a] * jc[c] } }
                    }
                }
                system.pointHessians[s.point] = hxx
                system.pointGradients[s.point] = gx
                system.pointCamera[s.point] = hxc
                if !fixed { system.couplings[f].append((s.point, hpx)) }
            }
            system.poseHessians[f] = hpp
            system.poseGradients[f] = gp
            system.poseCamera[f] = hpc
            system.cameraHessian = hcc
            system.cameraGradient = gc
        }
        return system
    }

    /// The damped Gauss–Newton step, poses eliminated onto the points and the camera vector
    /// (Schur complement); the camera is the reduced system's last four unknowns when estimated.
    private func solve(_ system: System, lambda: Double) -> (poses: [Vector6], points: [SIMD3<Double>], camera: SIMD4<Double>)? {
        guard let (matrix, b, inverses) = reduced(system, lambda: lambda) else { return nil }
        var s = matrix
        let n = b.count, points = system.pointHessians.count * 3
        guard let x = choleskySolve(&s, b.map { -$0 }, n) else { return nil }
        let pointSteps = (0..<(points / 3)).map { SIMD3(x[$0 * 3], x[$0 * 3 + 1], x[$0 * 3 + 2]) }
        let cameraStep = estimatesCamera ? SIMD4(x[points], x[points + 1], x[points + 2], x[points + 3]) * active : .zero
        var poseSteps = Array(repeating: Vector6(), count: system.poseHessians.count)
        for f in 1..<system.poseHessians.count {
            guard let inverse = inverses[f] else { continue }
            var rhs = Array(system.poseGradients[f].values)
            for c in system.couplings[f] {
                for a in 0..<6 {
                    for q in 0..<3 { rhs[a] += c.block[a * 3 + q] * x[c.point * 3 + q] }
                }
            }
            for a in 0..<6 {
                for c in 0..<cameraSize { rhs[a] += system.poseCamera[f][a * cameraSize + c] * cameraStep[c] }
            }
            let step = multiply(inverse, 6, 6, rhs, 1)
            poseSteps[f] = Vector6(values: step.map { -$0 })
        }
        return (poseSteps, pointSteps, cameraStep)
    }

    /// The reduced system over the points (and the camera) with the poses eliminated, its
    /// right-hand side, and each pose block's inverse.
    private func reduced(_ system: System, lambda: Double) -> ([Double], [Double], [[Double]?])? {
        let points = system.pointHessians.count * 3
        let n = points + (estimatesCamera ? cameraSize : 0)
        let last = points  // the camera's first row, when estimated
        var s = [Double](repeating: 0, count: n * n)
        var b = [Double](repeating: 0, count: n)
        for (j, h) in system.pointHessians.enumerated() {
            for a in 0..<3 {
                for c in 0..<3 { s[(j * 3 + a) * n + j * 3 + c] = h[a * 3 + c] }
                // Marquardt damping, with a floor for corners no residual constrains.
                s[(j * 3 + a) * (n + 1)] += lambda * h[a * 4] + 1e-9
                b[j * 3 + a] = system.pointGradients[j][a]
                if estimatesCamera {
                    for c in 0..<cameraSize {
                        s[(j * 3 + a) * n + last + c] = system.pointCamera[j][a * cameraSize + c]
                        s[(last + c) * n + j * 3 + a] = system.pointCamera[j][a * cameraSize + c]
                    }
                }
            }
        }
        if estimatesCamera {
            for a in 0..<cameraSize {
                for c in 0..<cameraSize { s[(last + a) * n + last + c] = system.cameraHessian[a * cameraSize + c] }
                s[(last + a) * (n + 1)] = system.cameraHessian[a * (cameraSize + 1)] * (1 + lambda) + 1e-12
                b[last + a] = system.cameraGradient[a]
            }
        }
        var inverses: [[Double]?] = Array(repeating: nil, count: system.poseHessians.count)
        for f in 1..<system.poseHessians.count {
            var h = system.poseHessians[f]
            for a in 0..<6 { h[a * 7] += lambda * h[a * 7] + 1e-9 }
            guard let inverse = invert6(h), cholesky(&h, 6) else { return nil }
            inverses[f] = inverse
            // The pose's couplings, column by column of the reduced system: each sighting's
            // 6x3 block and the camera's 6x4 block. With H_pp = L Lᵀ and W = L⁻¹ B, the pose
            // takes Wᵀ W off the reduced matrix (only its upper half computed: it is
            // symmetric) and Wᵀ L⁻¹ g off the right-hand side.
            var columns: [Int] = []
            var blocks: [(block: [Double], width: Int)] = system.couplings[f].map { ($0.block, 3) }
            for c in system.couplings[f] { columns += [c.point * 3, c.point * 3 + 1, c.point * 3 + 2] }
            if estimatesCamera {
                blocks.append((system.poseCamera[f], cameraSize))
                columns += (0..<cameraSize).map { last + $0 }
            }
            let w = whitenedColumns(blocks, factor: h)
            let g = forwardSubstitute(h, Array(system.poseGradients[f].values), 6)
            subtractGram(w, columns: columns, from: &s, n: n)
            for (k, column) in columns.enumerated() {
                var t = 0.0
                for q in 0..<6 { t += w[k * 6 + q] * g[q] }
                b[column] -= t
            }
        }
        return (s, b, inverses)
    }

    /// The camera parameters' standard deviations: the square roots of their diagonal entries
    /// in the inverse of the undamped reduced system (whitened residuals, so unit variance).
    private func cameraSigmas(_ system: System) -> SIMD4<Double> {
        // Undamped; where that is singular (a corner seen once), with the slightest damping.
        for lambda in [0, 1e-9, 1e-6] {
            guard estimatesCamera, let (matrix, b, _) = reduced(system, lambda: lambda) else { continue }
            var factor = matrix
            let n = b.count
            guard cholesky(&factor, n) else { continue }
            var sigmas = SIMD4<Double>.zero
            for c in 0..<cameraSize {
                var unit = [Double](repeating: 0, count: n)
                unit[n - cameraSize + c] = 1
                let x = substitute(factor, unit, n)
                sigmas[c] = max(0, x[n - cameraSize + c]).squareRoot()
            }
            return sigmas
        }
        return .zero
    }
}

/// The camera vector's length: focal scale, principal point shift x and y, added k1.
private let cameraSize = 4

private func square(_ x: Double) -> Double { x * x }

/// Six numbers: a pose gradient or step (rotation first, then translation).
struct Vector6 {
    var values = [Double](repeating: 0, count: 6)
}

/// `a` (rows x inner) times `b` (inner x columns), row-major.
private func multiply(_ a: [Double], _ rows: Int, _ inner: Int, _ b: [Double], _ columns: Int) -> [Double] {
    var out = [Double](repeating: 0, count: rows * columns)
    for r in 0..<rows {
        for q in 0..<inner {
            let v = a[r * inner + q]
            if v == 0 { continue }
            for c in 0..<columns { out[r * columns + c] += v * b[q * columns + c] }
        }
    }
    return out
}

/// Inverse of a symmetric positive definite 6x6 matrix, by Cholesky; nil if not definite.
private func invert6(_ h: [Double]) -> [Double]? {
    var inverse = [Double](repeating: 0, count: 36)
    var l = h
    guard cholesky(&l, 6) else { return nil }
    for c in 0..<6 {
        var e = [Double](repeating: 0, count: 6)
        e[c] = 1
        let x = substitute(l, e, 6)
        for r in 0..<6 { inverse[r * 6 + c] = x[r] }
    }
    return inverse
}

/// Solves `a x = b` for symmetric positive definite `a` (overwritten by its factor).
func choleskySolve(_ a: inout [Double], _ b: [Double], _ n: Int) -> [Double]? {
    guard cholesky(&a, n) else { return nil }
    return substitute(a, b, n)
}

/// In-place lower Cholesky factor of a row-major n x n matrix; false if not definite.
private func cholesky(_ a: inout [Double], _ n: Int) -> Bool {
    a.withUnsafeMutableBufferPointer { m in
        guard let base = m.baseAddress else { return n == 0 }
        for j in 0..<n {
            let rowJ = base + j * n
            let d = rowJ[j] - dot(rowJ, rowJ, j)
            guard d > 0 else { return false }
            let root = d.squareRoot()
            rowJ[j] = root
            for i in (j + 1)..<max(n, j + 1) {
                let rowI = base + i * n
                rowI[j] = (rowI[j] - dot(rowI, rowJ, j)) / root
            }
        }
        return true
    }
}

/// The dot product of the first `count` entries, in four independent sums: the factorisation's
/// inner loop, which one running sum would leave waiting on each addition.
@inline(__always)
private func dot(_ a: UnsafePointer<Double>, _ b: UnsafePointer<Double>, _ count: Int) -> Double {
    var sums = SIMD4<Double>.zero
    var q = 0
    while q + 4 <= count {
        sums += SIMD4(a[q], a[q + 1], a[q + 2], a[q + 3]) * SIMD4(b[q], b[q + 1], b[q + 2], b[q + 3])
        q += 4
    }
    var total = sums.sum()
    while q < count {
        total += a[q] * b[q]
        q += 1
    }
    return total
}

/// `L⁻¹ v` for a lower Cholesky factor `l` (row-major n x n).
private func forwardSubstitute(_ l: [Double], _ v: [Double], _ n: Int) -> [Double] {
    var y = v
    for i in 0..<n {
        var t = y[i]
        for q in 0..<i { t -= l[i * n + q] * y[q] }
        y[i] = t / l[i * n + i]
    }
    return y
}

/// The columns of `L⁻¹ [B₁ B₂ …]` for 6-row blocks `B`, each column's six numbers in a row.
private func whitenedColumns(_ blocks: [(block: [Double], width: Int)], factor l: [Double]) -> [Double] {
    var out: [Double] = []
    out.reserveCapacity(blocks.reduce(0) { $0 + $1.width } * 6)
    for (block, width) in blocks {
        for c in 0..<width {
            out += forwardSubstitute(l, (0..<6).map { block[$0 * width + c] }, 6)
        }
    }
    return out
}

/// `s[columns, columns] -= Wᵀ W` for the rows of six numbers in `w`; each pair is computed
/// once and written to both halves.
private func subtractGram(_ w: [Double], columns: [Int], from s: inout [Double], n: Int) {
    w.withUnsafeBufferPointer { w in
        s.withUnsafeMutableBufferPointer { s in
            for i in columns.indices {
                let wi = SIMD8(w[i * 6], w[i * 6 + 1], w[i * 6 + 2], w[i * 6 + 3], w[i * 6 + 4], w[i * 6 + 5], 0, 0)
                let rowI = columns[i] * n
                for j in i..<columns.count {
                    let wj = SIMD8(w[j * 6], w[j * 6 + 1], w[j * 6 + 2], w[j * 6 + 3], w[j * 6 + 4], w[j * 6 + 5], 0, 0)
                    let t = (wi * wj).sum()
                    s[rowI + columns[j]] -= t
                    if j != i { s[columns[j] * n + columns[i]] -= t }
                }
            }
        }
    }
}

/// Forward and back substitution with a lower Cholesky factor.
private func substitute(_ l: [Double], _ b: [Double], _ n: Int) -> [Double] {
    var y = b
    for i in 0..<n {
        var v = y[i]
        for q in 0..<i { v -= l[i * n + q] * y[q] }
        y[i] = v / l[i * n + i]
    }
    for i in stride(from: n - 1, through: 0, by: -1) {
        var v = y[i]
        for q in (i + 1)..<max(n, i + 1) { v -= l[q * n + i] * y[q] }
        y[i] = v / l[i * n + i]
    }
    return y
}
