import Geometry

/// The incremental marker map: each frame registered to the map so far, its new markers
/// added, and a keyframe kept whenever the camera moved enough or saw new markers.
struct MapBuilder {
    let registration: FrameRegistration
    let options: ReconstructionOptions
    private(set) var map = MarkerMap()
    private(set) var keyframes: [Keyframe] = []
    private var sums: [Int: ([SIMD3<Double>], Double)] = [:]

    init(registration: FrameRegistration, options: ReconstructionOptions) {
        self.registration = registration
        self.options = options
    }

    /// Adds one frame's observations; false when the frame cannot be placed on the map.
    mutating func add(_ observations: [MarkerObservation], frameIndex index: Int, unread: [MarkerObservation] = []) -> Bool {
        let pose: RigidTransform
        var inliers: Set<Int>
        if map.corners.isEmpty {
            let usable = observations.filter(\.fromDepth)
            guard usable.count >= 3 else { return false }
            pose = .identity
            inliers = Set(usable.map(\.id))
        } else {
            guard let result = registration.register(observations, map: map) else { return false }
            pose = result.mapFromCamera
            inliers = Set(result.inliers)
        }
        var added = false
        for o in observations where o.fromDepth {
            let isNew = map.corners[o.id] == nil
            guard inliers.contains(o.id) || isNew && inliers.count >= 2 else { continue }
            let world = o.corners.map(pose.apply)
            var entry = sums[o.id] ?? (Array(repeating: .zero, count: 4), 0)
            for c in 0..<4 { entry.0[c] += world[c] }
            entry.1 += 1
            sums[o.id] = entry
            map.corners[o.id] = entry.0.map { $0 / entry.1 }
            if isNew { added = true; inliers.insert(o.id) }
        }
        let kept = observations.filter { inliers.contains($0.id) }
        if let last = keyframes.last {
            let relative = last.mapFromCamera.inverse * pose
            guard
                added || length(relative.translation) > options.keyframeTranslation
                    || relative.rotation.angle > options.keyframeRotation
            else { return true }
        }
        keyframes.append(Keyframe(frameIndex: index, mapFromCamera: pose, observations: kept, unread: unread))
        return true
    }
}
