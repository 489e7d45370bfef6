import Foundation
import Geometry
import Recording

// A cap that slid on the head: the scan in two parts, each on its own marker map.
extension Reconstructor {
    /// What undoing a slide gives: the volume fused anew, the report, and the cap's markers
    /// where they lay on the head after the slide (in the frame of the mesh).
    struct SlidePlacement {
        var volume: TSDFVolume
        var slide: CapSlide
        var markersAfter: MarkerMap
    }

    /// Looks for a slide of the cap in the keyframes' depth (`CapSlideSearch`) and undoes it:
    /// the keyframes before it and after it each get a marker map of their own (one map for
    /// both blends the two places of the cap, on a head that is not round, and bends the poses
    /// on both sides); those while the cap moved are set aside. The search runs twice: first
    /// on the one map's poses, then on each part's own map, which finds the moment more
    /// sharply; its start and end are then found view by view (`CapSlideSearch.bounds`). The
    /// part after is then carried onto the head's surface of the part before
    /// (its depth registered as one body on a coarse and then the fine volume), and everything
    /// is fused anew. The map before the slide stays the scan's map.
    func placeAfterSlide(
        keyframes: inout [Keyframe], map: inout MarkerMap, kept: [KeptDepth], camera: SettledCamera,
        region: FusionRegion, tracked: FusionRegion, frame: (Int) throws -> RGBDFrame?,
        concurrentFrame: (@Sendable (Int) throws -> RGBDFrame?)?, progress: (ReconstructionProgress) -> Void, isCancelled: () -> Bool
    ) throws -> SlidePlacement? {
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
        var placedKept = kept.filter { poses[$0.keyframe] != nil }
        for i in placedKept.indices { placedKept[i].markerPose = poses[placedKept[i].keyframe] ?? placedKept[i].markerPose }

        // The part after, as one body, onto the coarse surface of the part before.
        let coarse = TSDFVolume(voxelSize: CapSlideSearch.coarseVoxel, truncation: CapSlideSearch.coarseTruncation)
        for k in placedKept where !afterSet.contains(k.keyframe) {
            coarse.integrate(depth: k.depth, intrinsics: k.intrinsics, worldFromCamera: k.markerPose, region: region)
        }
        var afterPoints = placedKept.filter { afterSet.contains($0.keyframe) }.flatMap { $0.points($0.markerPose, in: tracked, stride: 1) }
        if afterPoints.count > search.mostPoints * 6 {
            let every = (afterPoints.count + search.mostPoints * 6 - 1) / (search.mostPoints * 6)
            afterPoints = Swift.stride(from: 0, to: afterPoints.count, by: every).map { afterPoints[$0] }
        }
        var wide = SurfaceRegistration(huber: 0.002, minimumPoints: 500)
        wide.iterations = 30
        wide.priorRotation = 15 * Double.pi / 180
        wide.priorTranslation = 0.015
        let unmoved = search.share(afterPoints, .identity, coarse).share
        // Each part on its own map: what looked like a slide may be no more than the one map's blend.
        guard found.gain >= search.acceptedGain,
            var correction = wide.register(points: afterPoints, predicted: found.correction, volume: coarse, about: tracked.centre)?
                .worldFromCamera,
            CapSlide.size(of: correction, about: tracked.centre).millimetres >= search.acceptedMillimetres
        else { return nil }

        // Fused anew: the part before by its own map; at the first keyframe after the slide the
        // correction is refined on the fine surface of the part before, then the rest follows.
        let volume = TSDFVolume(voxelSize: options.voxelSize, truncation: options.truncation, colors: options.fuseColor)
        volume.threads = options.threads
        var refined = false
        var onSurface = 0.0
        try forEachKeyframe(keyframes, camera: camera, frame: frame, concurrentFrame: concurrentFrame, isCancelled: isCancelled) { k, f in
            progress(ReconstructionProgress(stage: .fusion, done: k, total: keyframes.count))
            guard var pose = poses[k] else { return }
            if afterSet.contains(k) {
                if !refined {
                    refined = true
                    var fine = SurfaceRegistration(huber: 0.0015, minimumPoints: 500)
                    fine.iterations = 20
                    if let better = fine.register(points: afterPoints, predicted: correction, volume: volume, about: tracked.centre) {
                        correction = better.worldFromCamera
                    }
                    onSurface = search.share(afterPoints, correction, coarse).share
                }
                pose = correction * pose
            }
            keyframes[k].mapFromCamera = pose
            volume.integrate(
                depth: f.depth, intrinsics: f.depthIntrinsics, worldFromCamera: pose, region: region,
                color: options.fuseColor ? f.color : nil, colorIntrinsics: f.colorIntrinsics)
        }
        let setAside = keyframes.indices.filter { poses[$0] == nil }
        keyframes = keyframes.indices.filter { poses[$0] != nil }.map { keyframes[$0] }
        map = mapBefore
        let size = CapSlide.size(of: correction, about: tracked.centre)
        let slide = CapSlide(
            startSeconds: start - (kept.first?.timestamp ?? 0), endSeconds: end - (kept.first?.timestamp ?? 0),
            startFrame: startFrame, endFrame: endFrame, millimetres: size.millimetres, degrees: size.degrees, keyframesSetAside: setAside.count,
            keyframesMoved: after.count, onSurfaceByMarkers: unmoved, onSurfaceByHead: onSurface)
        return SlidePlacement(volume: volume, slide: slide, markersAfter: mapAfter.transformed(by: correction))
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
