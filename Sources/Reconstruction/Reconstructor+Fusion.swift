import Foundation
import Geometry
import Recording

// Stage 3: the fusion.
extension Reconstructor {
    /// The space fused: the cap's sphere widened by `regionScale` and lowered by `regionDrop`
    /// away from the cap's crown (the cap covers the vault), so the face and ears are in it; where the
    /// markers do not lie on a head-sized sphere (a flat board, whose fitted sphere is huge),
    /// their extent plus a margin, never wider than a head's region, so memory stays bounded.
    func fusionRegion(_ map: MarkerMap) -> FusionRegion? {
        if let sphere = map.fittedSphere(), sphere.radius <= options.maximumHeadRadius {
            let up = capUp(map, sphere: sphere)
            // A cap whose lowest ring was never seen fits a smaller sphere higher up: the
            // region reaches down by that ring's height more, its top where it was.
            let unseen = min(map.unseenRingsDrop(layout: layout, radius: sphere.radius), sphere.radius / 2)
            return FusionRegion(
                centre: sphere.centre - up * (options.regionDrop * sphere.radius + unseen), radius: sphere.radius * options.regionScale + unseen)
        }
        let corners = map.ids.flatMap { map.corners[$0] ?? [] }
        guard !corners.isEmpty else { return nil }
        let centre = corners.reduce(SIMD3<Double>.zero, +) / Double(corners.count)
        let extent = corners.map { length($0 - centre) }.max() ?? 0
        return FusionRegion(centre: centre, radius: min(extent + 0.02, options.maximumHeadRadius * options.regionScale))
    }

    /// The direction from the head's centre to the cap's crown: from the layout's placements
    /// where it has them (stickers lost on one side do not tilt it), else toward the markers'
    /// mean; zero when markers all round the sphere give no direction.
    func capUp(_ map: MarkerMap, sphere: (centre: SIMD3<Double>, radius: Double)) -> SIMD3<Double> {
        if let frame = map.headFrame(layout: layout) {
            let up = frame.headFromMap.inverse.rotation.apply(SIMD3(0, 0, 1))
            if up.x.isFinite, up.y.isFinite, up.z.isFinite { return up }
        }
        let centres = map.ids.compactMap { map.corners[$0] }.map { $0.reduce(SIMD3<Double>.zero, +) / Double($0.count) }
        let towardCap = centres.reduce(SIMD3<Double>.zero) { $0 + ($1 - sphere.centre) } / Double(max(1, centres.count))
        return length(towardCap) > 0.1 * sphere.radius ? normalized(towardCap) : .zero
    }

    /// Stage 3: the keyframes' depth fused into a sparse TSDF around the cap's sphere, the
    /// pinhole frames read with the settled `camera`. First the keyframes' small depth (kept by
    /// the markers stage) is searched for a cap that slid on the head (`findSlide`); when it
    /// did, the scan is fused as the slide was undone, `map` becomes the cap's map before the
    /// slide, and the cap's markers after it are returned.
    func fuse(
        _ keyframes: inout [Keyframe], map: inout MarkerMap, camera: SettledCamera, smallDepth: SmallDepthStore,
        frame: (Int) throws -> RGBDFrame?, concurrentFrame: (@Sendable (Int) throws -> RGBDFrame?)?, stats: inout ReconstructionStatistics,
        progress: (ReconstructionProgress) -> Void, isCancelled: () -> Bool
    ) throws -> (TSDFVolume, FusionRegion, MarkerMap?) {
        guard let region = fusionRegion(map) else { throw ReconstructionError.noUsableMarkers(framesSeen: stats.framesExamined) }
        var slide: SlidePlan?
        // The head's rigid part: the vault under the cap and the upper face and ears, not the
        // jaw, the neck or the bodies below.
        if options.findsCapSlide, let sphere = map.fittedSphere(), sphere.radius <= options.maximumHeadRadius {
            let tracked = FusionRegion(centre: sphere.centre, radius: sphere.radius * 1.2)
            let kept = try keptDepth(
                keyframes, smallDepth: smallDepth, camera: camera, frame: frame, concurrentFrame: concurrentFrame, isCancelled: isCancelled)
            slide = findSlide(
                keyframes: keyframes, map: map, kept: kept, camera: camera, region: region, tracked: tracked, doubt: &stats.capSlideDoubt)
        }
        let volume = TSDFVolume(voxelSize: options.voxelSize, truncation: options.truncation, colors: options.fuseColor)
        volume.threads = options.threads
        // Integration alone (without reading the frames), to compare with other fusion code.
        let clock = ContinuousClock()
        var integration = Duration.zero
        let search = CapSlideSearch()
        try forEachKeyframe(keyframes, camera: camera, frame: frame, concurrentFrame: concurrentFrame, isCancelled: isCancelled) { k, f in
            progress(ReconstructionProgress(stage: .fusion, done: k, total: keyframes.count))
            var pose = keyframes[k].mapFromCamera
            if var plan = slide {
                defer { slide = plan }
                guard let placed = plan.pose(of: k, fusingInto: volume, search: search) else { return }
                pose = placed
                keyframes[k].mapFromCamera = pose
            }
            let integrationStart = clock.now
            defer { integration += clock.now - integrationStart }
            volume.integrate(
                depth: f.depth, intrinsics: f.depthIntrinsics, worldFromCamera: pose, region: region,
                color: options.fuseColor ? f.color : nil, colorIntrinsics: f.colorIntrinsics)
        }
        var markersAfterSlide: MarkerMap?
        if let plan = slide {
            let placed = keyframes.indices.filter { plan.poses[$0] != nil }
            stats.capSlide = plan.slide(keyframesSetAside: keyframes.count - placed.count)
            keyframes = placed.map { keyframes[$0] }
            map = plan.mapBefore
            markersAfterSlide = plan.mapAfter.transformed(by: plan.correction)
        }
        stats.voxelBlocks = volume.blockCount
        stats.volumeBytes = volume.memoryBytes
        stats.stageSeconds["fusionIntegration"] = integration.seconds
        return (volume, region, markersAfterSlide)
    }

    /// Calls `body` with every keyframe's pinhole frame read with the settled `camera`, in order.
    /// With a source several threads may read, a few keyframes at a time are decoded on every
    /// thread; they are handed on one by one in order either way.
    func forEachKeyframe(
        _ keyframes: [Keyframe], camera: SettledCamera, frame: (Int) throws -> RGBDFrame?,
        concurrentFrame: (@Sendable (Int) throws -> RGBDFrame?)?, isCancelled: () -> Bool, body: (Int, RGBDFrame) throws -> Void
    ) throws {
        let batchSize = concurrentFrame == nil ? 1 : max(1, options.threads) * 2
        for start in stride(from: 0, to: keyframes.count, by: batchSize) {
            let batch = Array(keyframes[start..<min(start + batchSize, keyframes.count)])
            let frames = SlotBuffer<RGBDFrame?>(count: batch.count, repeating: nil)
            if let concurrentFrame {
                parallelFor(batch.count, threads: options.threads) { k in
                    frames[k] = (try? concurrentFrame(batch[k].frameIndex))?.removingLensDistortion()
                }
            } else {
                frames[0] = try? frame(batch[0].frameIndex)
            }
            for k in batch.indices {
                if isCancelled() { throw ReconstructionError.cancelled }
                guard let f = frames[k].map(camera.reading) else { continue }
                try body(start + k, f)
            }
        }
    }
}
