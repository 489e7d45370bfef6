import Foundation
import Geometry
import Recording

// A cap that slid on the head: the scan in two parts, each on its own marker map.
extension Reconstructor {
    /// A slide found before anything is fused: each keyframe's pose (nil: set aside while the
    /// cap moved), the keyframes after the slide, which the correction carries onto the head's
    /// surface from before it, and the two parts' marker maps.
    struct SlidePlan {
        var poses: [Int: RigidTransform]
        var after: Set<Int>
        var afterPoints: [SIMD3<Double>]
        var correction: RigidTransform
        /// The part before, fused coarsely: the share of the part after on it is reported.
        var coarse: TSDFVolume
        var onSurfaceByMarkers: Double
        var mapBefore: MarkerMap
        var mapAfter: MarkerMap
        var startSeconds: Double
        var endSeconds: Double
        var startFrame: Int
        var endFrame: Int
        var centre: SIMD3<Double>
        var refined = false
        var onSurfaceByHead = 0.0

        /// Keyframe `k`'s pose as it is fused into `volume`, nil when it is set aside. At the
        /// first keyframe after the slide the correction is refined on the fine surface of the
        /// part before, fused by then.
        mutating func pose(of k: Int, fusingInto volume: TSDFVolume, search: CapSlideSearch) -> RigidTransform? {
            guard let pose = poses[k] else { return nil }
            guard after.contains(k) else { return pose }
            if !refined {
                refined = true
                var fine = SurfaceRegistration(huber: 0.0015, minimumPoints: 500)
                fine.iterations = 20
                if let better = fine.register(points: afterPoints, predicted: correction, volume: volume, about: centre) {
                    correction = better.worldFromCamera
                }
                onSurfaceByHead = search.share(afterPoints, correction, coarse).share
            }
            return correction * pose
        }

        /// The report, once the scan is fused.
        func slide(keyframesSetAside: Int) -> CapSlide {
            let size = CapSlide.size(of: correction, about: centre)
            return CapSlide(
                startSeconds: startSeconds, endSeconds: endSeconds, startFrame: startFrame, endFrame: endFrame, millimetres: size.millimetres,
                degrees: size.degrees, keyframesSetAside: keyframesSetAside, keyframesMoved: after.count, onSurfaceByMarkers: onSurfaceByMarkers,
                onSurfaceByHead: onSurfaceByHead)
        }
    }

    /// Looks for a slide of the cap in the keyframes' small depth (`CapSlideSearch`), before
    /// the scan is fused, and plans how to undo it: the keyframes before it and after it each
    /// get a marker map of their own (one map for both blends the two places of the cap, on a
    /// head that is not round, and bends the poses on both sides); those while the cap moved
    /// are set aside. The search runs twice: first on the one map's poses, then on each part's
    /// own map, which finds the moment more sharply; its start and end are then found view by
    /// view (`CapSlideSearch.bounds`). The part after is carried onto the head's surface of the
    /// part before (its depth registered as one body on a coarse volume here, and on the fine
    /// one as it is fused). The map before the slide stays the scan's map.
    func findSlide(
        keyframes: [Keyframe], map: MarkerMap, kept: [KeptDepth], camera: SettledCamera, region: FusionRegion, tracked: FusionRegion,
        doubt: inout CapSlideDoubt?
    ) -> SlidePlan? {
        let search = CapSlideSearch()
        let markerPoses = kept.map(\.markerPose)
        let firstRound = search.profile(kept, before: markerPoses, after: markerPoses, region: region, tracked: tracked)
        guard let first = search.best(firstRound, about: tracked.centre) else { return nil }
        // The one map blurs the moment: the best few moments of the first round, each tried
        // again near itself with each part's own map, the best of those kept.
        let adjustment = BundleAdjustment(iterations: options.bundleIterations)
        var found = first, bestFit = -Double.infinity
        var placed = (before: markerPoses, after: markerPoses)
        for candidate in search.candidates(firstRound) {
            let (_, mapBefore, mapAfter) = splitRefine(
                keyframes, kept: kept, start: candidate.moment, end: candidate.moment + search.rampSeconds, map: map, camera: camera)
            let onBefore = kept.map { adjustment.place(keyframes[$0.keyframe], from: $0.markerPose, on: mapBefore) ?? $0.markerPose }
            let onAfter = kept.map { adjustment.place(keyframes[$0.keyframe], from: $0.markerPose, on: mapAfter) ?? $0.markerPose }
            let near = (candidate.moment - search.refineSeconds)...(candidate.moment + search.refineSeconds)
            let secondRound = search.profile(
                kept, before: onBefore, after: onAfter, region: region, tracked: tracked, moments: near, step: search.secondStep)
            guard let second = search.best(secondRound, about: tracked.centre) else { continue }
            let fit = search.consistency(kept, before: onBefore, after: onAfter, split: second, region: region, tracked: tracked)
            if fit > bestFit { (found, bestFit, placed) = (second, fit, (onBefore, onAfter)) }
        }
        let (start, end) = search.bounds(
            kept, before: placed.before, after: placed.after, correction: found.correction, moment: found.moment, region: region,
            tracked: tracked)
        let (poses, mapBefore, mapAfter) = splitRefine(keyframes, kept: kept, start: start, end: end, map: map, camera: camera)
        let after = kept.filter { $0.timestamp >= end }.map(\.keyframe)
        guard let endFrame = after.first.map({ keyframes[$0].frameIndex }),
            let startFrame = kept.last(where: { $0.timestamp < start }).map({ keyframes[$0.keyframe].frameIndex + 1 })
        else { return nil }
        let afterSet = Set(after)
        var placedKept = kept.filter { poses[$0.keyframe] != nil }.map {
            $0.withoutStickers(keyframes[$0.keyframe].observations.map(\.corners) + keyframes[$0.keyframe].unread.map(\.corners))
        }
        for i in placedKept.indices { placedKept[i].markerPose = poses[placedKept[i].keyframe] ?? placedKept[i].markerPose }

        // The part after, as one body, onto the coarse surface of the part before.
        let coarse = TSDFVolume(voxelSize: CapSlideSearch.coarseVoxel, truncation: CapSlideSearch.coarseTruncation)
        for k in placedKept where !afterSet.contains(k.keyframe) {
            coarse.integrate(depth: k.depth, intrinsics: k.intrinsics, worldFromCamera: k.markerPose, region: region)
        }
        let afterPoints = CapSlideSearch.thinned(
            placedKept.filter { afterSet.contains($0.keyframe) }.map { $0.points($0.markerPose, in: tracked, stride: 1) },
            toAtMost: search.mostPoints * 6)
        var wide = SurfaceRegistration(huber: 0.002, minimumPoints: 500)
        wide.iterations = 30
        wide.priorRotation = 15 * Double.pi / 180
        wide.priorTranslation = 0.015
        let unmoved = search.share(afterPoints, .identity, coarse).share
        // Each part on its own map: what looked like a slide may be no more than the one map's blend.
        let firstTime = kept.first?.timestamp ?? 0
        guard found.gain >= search.doubtGain else { return nil }
        let searched = CapSlide.size(of: found.correction, about: tracked.centre).millimetres
        let correction = wide.register(points: afterPoints, predicted: found.correction, volume: coarse, about: tracked.centre)?
            .worldFromCamera
        let size = correction.map { CapSlide.size(of: $0, about: tracked.centre).millimetres } ?? 0
        guard let correction, found.gain >= search.acceptedGain, size >= search.acceptedMillimetres else {
            // Seen, but not clearly: a small gain, or the search's correction and the one on the
            // head's surface alone disagree on whether the head moved.
            if max(size, searched) >= search.acceptedMillimetres {
                doubt = CapSlideDoubt(startSeconds: start - firstTime, millimetres: max(size, searched), gain: found.gain)
            }
            return nil
        }
        return SlidePlan(
            poses: poses, after: afterSet, afterPoints: afterPoints, correction: correction, coarse: coarse, onSurfaceByMarkers: unmoved,
            mapBefore: mapBefore, mapAfter: mapAfter, startSeconds: start - firstTime, endSeconds: end - firstTime, startFrame: startFrame,
            endFrame: endFrame, centre: tracked.centre)
    }

    /// Every keyframe's depth kept small, placed by its markers: from the markers stage's
    /// reading where it kept it, the others read again (the keyframes change when the camera's
    /// focal length was corrected and the map built anew).
    func keptDepth(
        _ keyframes: [Keyframe], smallDepth: SmallDepthStore, camera: SettledCamera, frame: (Int) throws -> RGBDFrame?,
        concurrentFrame: (@Sendable (Int) throws -> RGBDFrame?)?, isCancelled: () -> Bool
    ) throws -> [KeptDepth] {
        var kept: [Int: KeptDepth] = [:]
        var missing: [Int] = []
        for (k, keyframe) in keyframes.enumerated() {
            if let small = smallDepth[keyframe.frameIndex] {
                kept[k] = KeptDepth(keyframe: k, markerPose: keyframe.mapFromCamera, small: small, correction: camera.correction)
            } else {
                missing.append(k)
            }
        }
        let unread = missing.map { keyframes[$0] }
        try forEachKeyframe(unread, camera: camera, frame: frame, concurrentFrame: concurrentFrame, isCancelled: isCancelled) { i, f in
            let k = missing[i]
            kept[k] = KeptDepth(
                keyframe: k, timestamp: f.timestamp, markerPose: keyframes[k].mapFromCamera, depth: f.depth, intrinsics: f.depthIntrinsics)
        }
        return kept.keys.sorted().compactMap { kept[$0] }
    }

    /// The keyframes before `start` and from `end` on, each part adjusted on its own (`refineSegment`):
    /// their poses by keyframe, and the two parts' maps.
    func splitRefine(
        _ keyframes: [Keyframe], kept: [KeptDepth], start: Double, end: Double, map: MarkerMap, camera: SettledCamera
    ) -> (poses: [Int: RigidTransform], before: MarkerMap, after: MarkerMap) {
        let before = kept.filter { $0.timestamp < start }.map(\.keyframe)
        let after = kept.filter { $0.timestamp >= end }.map(\.keyframe)
        let (partBefore, mapBefore) = refineSegment(before.map { keyframes[$0] }, map: map, camera: camera)
        let (partAfter, mapAfter) = refineSegment(after.map { keyframes[$0] }, map: map, camera: camera)
        var poses: [Int: RigidTransform] = [:]
        for (k, keyframe) in zip(before, partBefore) { poses[k] = keyframe.mapFromCamera }
        for (k, keyframe) in zip(after, partAfter) { poses[k] = keyframe.mapFromCamera }
        return (poses, mapBefore, mapAfter)
    }

    /// The bundle adjustment on one part of the scan alone: its keyframes and the markers they
    /// saw, the camera as settled.
    func refineSegment(_ part: [Keyframe], map: MarkerMap, camera: SettledCamera) -> ([Keyframe], MarkerMap) {
        var part = part
        let seen = Set(part.flatMap { $0.observations.map(\.id) })
        var partMap = MarkerMap(corners: map.corners.filter { seen.contains($0.key) })
        BundleAdjustment(iterations: options.bundleIterations).refine(keyframes: &part, map: &partMap)
        if options.jointBundleIterations > 0 {
            JointBundleAdjustment(iterations: options.jointBundleIterations).refine(keyframes: &part, map: &partMap, intrinsics: camera.pinhole)
        }
        return (part, partMap)
    }
}
