import Geometry

// The normal equations of the joint bundle adjustment: built from the residual rows, solved
// with the poses eliminated onto the corners and the camera (the Schur complement).
extension JointBundleAdjustment {
    /// Pose blocks per keyframe, corner blocks, and the pose–corner coupling.
    struct System {
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

    func linearise(
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
    func solve(_ system: System, lambda: Double) -> (poses: [Vector6], points: [SIMD3<Double>], camera: SIMD4<Double>)? {
        guard let (matrix, b, inverses) = reduced(system, lambda: lambda) else { return nil }
        var s = matrix
        let n = b.count, points = system.pointHessians.count * 3
        guard let x = Cholesky.solve(&s, b.map { -$0 }, n) else { return nil }
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
            let step = LinearSolver.multiply(inverse, rows: 6, inner: 6, rhs, columns: 1)
            poseSteps[f] = Vector6(values: step.map { -$0 })
        }
        return (poseSteps, pointSteps, cameraStep)
    }

    /// The reduced system over the points (and the camera) with the poses eliminated, its
    /// right-hand side, and each pose block's inverse.
    func reduced(_ system: System, lambda: Double) -> ([Double], [Double], [[Double]?])? {
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
            guard let inverse = Cholesky.inverse(h, 6), Cholesky.factor(&h, 6) else { return nil }
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
            SchurComplement.eliminateSix(
                factor: h, gradient: Array(system.poseGradients[f].values), couplings: blocks, columns: columns, from: &s, &b, n: n)
        }
        return (s, b, inverses)
    }

    /// The camera parameters' standard deviations: the square roots of their diagonal entries
    /// in the inverse of the undamped reduced system (whitened residuals, so unit variance).
    func cameraSigmas(_ system: System) -> SIMD4<Double> {
        // Undamped; where that is singular (a corner seen once), with the slightest damping.
        for lambda in [0, 1e-9, 1e-6] {
            guard estimatesCamera, let (matrix, b, _) = reduced(system, lambda: lambda) else { continue }
            var factor = matrix
            let n = b.count
            guard Cholesky.factor(&factor, n) else { continue }
            var sigmas = SIMD4<Double>.zero
            for c in 0..<cameraSize {
                var unit = [Double](repeating: 0, count: n)
                unit[n - cameraSize + c] = 1
                let x = Cholesky.substitute(factor, unit, n)
                sigmas[c] = max(0, x[n - cameraSize + c]).squareRoot()
            }
            return sigmas
        }
        return .zero
    }
}
