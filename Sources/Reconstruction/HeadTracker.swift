import Geometry
import Imaging

/// Follows the head itself while the keyframes are fused: each keyframe's depth is registered
/// on the surface fused before it, first on a coarse volume (3 mm voxels, 12 mm deep, so that a
/// head the markers put 10 mm off is still found), then on the fine one. The correction from
/// the cap's markers to the head changes only when the surface fits clearly better, so that a
/// cap that holds still is placed by its markers alone.
final class HeadTracker {
    private var coarse = TSDFVolume(voxelSize: 0.003, truncation: 0.012)
    private let threads: Int
    private let region: FusionRegion
    /// The head's rigid part: the vault under the cap, the upper face and the ears.
    private let trackedRegion: FusionRegion
    private let warmup: Int
    private var fused = 0
    /// Head from cap: identity while the cap holds still.
    private(set) var correction = RigidTransform.identity
    private(set) var report = HeadTrackingReport()

    init(region: FusionRegion, trackedRegion: FusionRegion, warmup: Int, threads: Int) {
        self.region = region
        self.trackedRegion = trackedRegion
        self.warmup = warmup
        self.threads = threads
        coarse.threads = threads
    }

    /// Where the keyframe whose markers put it at `markerPose` is fused.
    func place(
        _ markerPose: RigidTransform, depth: DepthImage, intrinsics: CameraIntrinsics, fine: TSDFVolume, frame: Int
    )
        -> RigidTransform
    {
        defer { fused += 1 }
        let predicted = correction * markerPose
        guard fused >= warmup else { return predicted }
        let coarseStep = SurfaceRegistration(huber: 0.003, minimumPoints: 300)
        let start =
            coarseStep.register(depth: depth, intrinsics: intrinsics, predicted: predicted, volume: coarse, region: trackedRegion)?
            .worldFromCamera ?? predicted
        let fineStep = SurfaceRegistration()
        guard let placed = fineStep.register(depth: depth, intrinsics: intrinsics, predicted: start, volume: fine, region: trackedRegion)
        else {
            report.keyframesUntracked += 1
            report.record(correction, about: region.centre, frame: frame)
            return predicted
        }
        report.keyframesTracked += 1
        let before = fineStep.agreement(depth: depth, intrinsics: intrinsics, pose: predicted, volume: fine, region: trackedRegion)
        let change = placed.worldFromCamera * predicted.inverse
        let found = placed.worldFromCamera * markerPose.inverse
        if HeadTrackingReport.size(of: change, about: region.centre).millimetres > HeadTrackingReport.holdMillimetres,
            HeadTrackingReport.size(of: found, about: region.centre).millimetres <= HeadTrackingReport.mostCapMovementMillimetres,
            SurfaceRegistration.improves(placed.points, placed.rms, over: before.points, before.rms)
        {
            correction = found
            report.keyframesMoved += 1
        }
        report.record(correction, about: region.centre, frame: frame)
        return correction * markerPose
    }

    /// A keyframe placed in the first pass, placed again on the whole surface that pass fused:
    /// moved when the surface fits it clearly better elsewhere.
    func refine(
        _ pose: RigidTransform, markerPose: RigidTransform, depth: DepthImage, intrinsics: CameraIntrinsics, on surface: TSDFVolume
    )
        -> RigidTransform
    {
        let fineStep = SurfaceRegistration()
        guard let placed = fineStep.register(depth: depth, intrinsics: intrinsics, predicted: pose, volume: surface, region: trackedRegion)
        else { return pose }
        let before = fineStep.agreement(depth: depth, intrinsics: intrinsics, pose: pose, volume: surface, region: trackedRegion)
        let change = placed.worldFromCamera * pose.inverse
        let found = placed.worldFromCamera * markerPose.inverse
        guard HeadTrackingReport.size(of: change, about: region.centre).millimetres > HeadTrackingReport.holdMillimetres,
            HeadTrackingReport.size(of: found, about: region.centre).millimetres <= HeadTrackingReport.mostCapMovementMillimetres,
            SurfaceRegistration.improves(placed.points, placed.rms, over: before.points, before.rms)
        else { return pose }
        report.keyframesPlacedAgain += 1
        return placed.worldFromCamera
    }

    /// Before a second pass: the coarse volume is fused anew with it.
    func startAgain() {
        coarse = TSDFVolume(voxelSize: 0.003, truncation: 0.012)
        coarse.threads = threads
    }

    /// Fuses the keyframe into the coarse volume too.
    func integrate(depth: DepthImage, intrinsics: CameraIntrinsics, pose: RigidTransform) {
        coarse.integrate(depth: depth, intrinsics: intrinsics, worldFromCamera: pose, region: region)
    }
}
