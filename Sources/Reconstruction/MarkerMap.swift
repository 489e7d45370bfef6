import Geometry

/// The cap's markers in one rigid frame (the head's): four corners each, metres.
public struct MarkerMap: Sendable, Equatable {
    /// Corners per marker ID, OpenCV order.
    public var corners: [Int: [SIMD3<Double>]]

    /// A map from its corners.
    public init(corners: [Int: [SIMD3<Double>]] = [:]) { self.corners = corners }

    /// Mapped IDs in ascending order.
    public var ids: [Int] { corners.keys.sorted() }

    /// The map with every corner mapped by `transform`.
    public func transformed(by transform: RigidTransform) -> MarkerMap {
        MarkerMap(corners: corners.mapValues { $0.map(transform.apply) })
    }

    /// Centre and radius of the sphere that best fits the corners (algebraic least squares);
    /// the cap hugs the skull, so this is the head's centre and size. Nil for too few or
    /// coplanar markers.
    public func fittedSphere() -> (centre: SIMD3<Double>, radius: Double)? {
        let points = ids.flatMap { corners[$0] ?? [] }
        return points.count >= 12 ? Self.sphere(through: points) : nil
    }

    /// The sphere that best fits `points` by algebraic least squares: |p|² = 2 c·p + (r² − |c|²),
    /// linear in the centre c and the last term. Nil when they do not fix one.
    static func sphere(through points: [SIMD3<Double>]) -> (centre: SIMD3<Double>, radius: Double)? {
        var a: [Double] = [], b: [Double] = []
        a.reserveCapacity(points.count * 4)
        for p in points {
            a += [2 * p.x, 2 * p.y, 2 * p.z, 1]
            b.append(dot(p, p))
        }
        guard let x = try? LinearSolver.leastSquares(a, b, columns: 4) else { return nil }
        let c = SIMD3(x[0], x[1], x[2])
        let r2 = x[3] + dot(c, c)
        guard r2 > 0 else { return nil }
        return (c, r2.squareRoot())
    }
}

/// Fits `mapFromCamera` for a frame's observations of mapped markers, robustly: every pair of
/// markers proposes a pose, the pose with most markers within `inlierThreshold` (mean corner
/// residual) wins, and the inliers are refitted. Ghost detections (a wrong ID) and markers
/// whose depth hit a hand fall out as outliers.
struct FrameRegistration {
    var inlierThreshold = 0.003
    /// Weight of PnP corners against depth corners.
    var imageOnlyWeight = 0.05
    /// The depth uncertainty the threshold is set for (a TrueDepth corner at scanning distance);
    /// markers whose depth is less sure (farther, more oblique) get up to three times the room
    /// and less weight.
    var referenceDepthSigma = 0.0003

    /// How much less sure than the reference an observation's corners are (1...3).
    private func looseness(_ o: MarkerObservation) -> Double {
        o.fromDepth ? min(3, max(1, o.depthSigma / referenceDepthSigma)) : 3
    }

    struct Result {
        var mapFromCamera: RigidTransform
        var inliers: [Int]
    }

    func register(_ observations: [MarkerObservation], map: MarkerMap) -> Result? {
        let matched = observations.filter { map.corners[$0.id] != nil }
        guard matched.count >= 2 else { return nil }
        var best: (inliers: [Int], error: Double)?
        var bestPose = RigidTransform.identity
        let anchors = matched.filter(\.fromDepth)
        for i in anchors.indices {
            for j in (i + 1)..<max(anchors.count, i + 1) {
                let pair = [anchors[i], anchors[j]]
                guard
                    let fit = try? RigidAlignment.fit(
                        from: pair.flatMap(\.corners), to: pair.flatMap { map.corners[$0.id]! })
                else { continue }
                var inliers: [Int] = [], error = 0.0
                for (index, o) in matched.enumerated() {
                    let e = meanResidual(o, map.corners[o.id]!, fit.transform)
                    if e < inlierThreshold * looseness(o) { inliers.append(index); error += e }
                }
                if best == nil || inliers.count > best!.inliers.count || inliers.count == best!.inliers.count && error < best!.error {
                    best = (inliers, error)
                    bestPose = fit.transform
                }
            }
        }
        guard let chosen = best, chosen.inliers.count >= 2 else { return nil }
        let used = chosen.inliers.map { matched[$0] }
        var weights: [Double] = []
        for o in used {
            let ratio = looseness(o)
            weights += Array(repeating: o.fromDepth ? 1 / (ratio * ratio) : imageOnlyWeight, count: 4)
        }
        guard
            let refit = try? RigidAlignment.fit(
                from: used.flatMap(\.corners), to: used.flatMap { map.corners[$0.id]! }, weights: weights)
        else {
            return Result(mapFromCamera: bestPose, inliers: used.map(\.id))
        }
        return Result(mapFromCamera: refit.transform, inliers: used.map(\.id))
    }

    private func meanResidual(_ o: MarkerObservation, _ mapped: [SIMD3<Double>], _ pose: RigidTransform) -> Double {
        var sum = 0.0
        for c in 0..<4 { sum += distance(pose.apply(o.corners[c]), mapped[c]) }
        return sum / 4
    }
}
