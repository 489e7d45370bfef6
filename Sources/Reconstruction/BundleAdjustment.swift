import Geometry

/// A registered frame kept for refinement and fusion.
public struct Keyframe: Sendable {
    /// Index of the frame in the scan.
    public var frameIndex: Int
    /// Camera pose in the marker map's (head) frame.
    public var mapFromCamera: RigidTransform
    /// What the frame saw of the cap.
    public var observations: [MarkerObservation]
    /// Outlines of stickers whose code the frame could not read (a smeared, torn or creased
    /// print), their corners lifted through the depth (camera frame, metres; no ID).
    public var unread: [MarkerObservation] = []
}

/// Joint refinement of keyframe poses and marker corners under a robust (Huber) loss on 3D
/// corner residuals, by alternating exact sub-problems: with poses fixed each corner is a
/// weighted mean, with the map fixed each pose is a weighted Kabsch fit. Every step lowers the
/// reweighted cost, and each sub-problem is solved exactly, so no damping or Jacobians are
/// needed; the first keyframe is held fixed because it defines the map's frame.
/// This is the robust first stage: it brings every keyframe near the optimum and drops gross
/// outliers; `JointBundleAdjustment` then refines on reprojection and depth residuals.
struct BundleAdjustment {
    var iterations = 15
    /// Residual (metres) beyond which Huber's loss turns linear.
    var huberDelta = 0.0005
    /// Residuals beyond this are dropped altogether.
    var rejectBeyond = 0.006
    var imageOnlyWeight = 0.05
    /// The depth uncertainty the thresholds above are set for (a TrueDepth corner at scanning
    /// distance); corners whose depth is less sure get wider thresholds and less weight.
    var referenceDepthSigma = 0.0003

    func refine(keyframes: inout [Keyframe], map: inout MarkerMap) {
        guard !keyframes.isEmpty else { return }
        var source: [SIMD3<Double>] = [], target: [SIMD3<Double>] = [], weights: [Double] = []
        for _ in 0..<iterations {
            // Map step.
            var sums: [Int: [SIMD3<Double>]] = [:], totals: [Int: [Double]] = [:]
            for frame in keyframes {
                for o in frame.observations {
                    guard let mapped = map.corners[o.id] else { continue }
                    var s = sums[o.id] ?? Array(repeating: .zero, count: 4)
                    var t = totals[o.id] ?? Array(repeating: 0, count: 4)
                    for c in 0..<4 {
                        let p = frame.mapFromCamera.apply(o.corners[c])
                        let w = weight(distance(p, mapped[c]), o)
                        s[c] += w * p
                        t[c] += w
                    }
                    sums[o.id] = s
                    totals[o.id] = t
                }
            }
            for (id, s) in sums {
                let t = totals[id]!
                guard t.allSatisfy({ $0 > 0 }) else { continue }
                map.corners[id] = (0..<4).map { s[$0] / t[$0] }
            }
            // Pose step.
            for k in keyframes.indices.dropFirst() {
                if let pose = poseStep(keyframes[k], from: keyframes[k].mapFromCamera, on: map, &source, &target, &weights) {
                    keyframes[k].mapFromCamera = pose
                }
            }
        }
    }

    /// Where `keyframe` lies on a fixed `map`, starting from `start`: the pose step a few
    /// times; nil when it sees too little of the map.
    func place(_ keyframe: Keyframe, from start: RigidTransform, on map: MarkerMap) -> RigidTransform? {
        var source: [SIMD3<Double>] = [], target: [SIMD3<Double>] = [], weights: [Double] = []
        var pose = start
        for _ in 0..<4 {
            guard let next = poseStep(keyframe, from: pose, on: map, &source, &target, &weights) else { return nil }
            pose = next
        }
        return pose
    }

    /// One weighted Kabsch fit of the keyframe's corners onto the map, weighted by their
    /// residuals at `pose`.
    private func poseStep(
        _ keyframe: Keyframe, from pose: RigidTransform, on map: MarkerMap, _ source: inout [SIMD3<Double>],
        _ target: inout [SIMD3<Double>], _ weights: inout [Double]
    ) -> RigidTransform? {
        source.removeAll(keepingCapacity: true)
        target.removeAll(keepingCapacity: true)
        weights.removeAll(keepingCapacity: true)
        for o in keyframe.observations {
            guard let mapped = map.corners[o.id] else { continue }
            for c in 0..<4 {
                source.append(o.corners[c])
                target.append(mapped[c])
                weights.append(weight(distance(pose.apply(o.corners[c]), mapped[c]), o))
            }
        }
        return try? RigidAlignment.fit(from: source, to: target, weights: weights).transform
    }

    private func weight(_ residual: Double, _ o: MarkerObservation) -> Double {
        let ratio = o.fromDepth ? max(1, o.depthSigma / referenceDepthSigma) : 1
        guard residual < rejectBeyond * ratio else { return 0 }
        let base = o.fromDepth ? 1 / (ratio * ratio) : imageOnlyWeight
        return residual <= huberDelta * ratio ? base : base * huberDelta * ratio / residual
    }
}
