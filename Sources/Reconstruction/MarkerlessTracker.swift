import Foundation
import Geometry
import Imaging
import Recording

/// `MarkerlessReconstructor`'s tracking one frame at a time: the reconstruction runs it over a
/// whole recording, and the scan guide without markers runs the same tracking live to know
/// which parts of the head the camera has seen.
///
/// Not thread-safe: one caller adds frames in time order.
public final class MarkerlessTracker {
    /// The settings, and what the first view of the head decided (its noise, whether a print
    /// is matched).
    public private(set) var reconstructor: MarkerlessReconstructor
    private var volume: TSDFVolume
    private let coarse: TSDFVolume
    /// The space fused; nil until a frame showed the head.
    public private(set) var region: FusionRegion?
    private var tracked = FusionRegion(centre: .zero, radius: 0)
    /// Every placed frame, in order.
    public private(set) var poses: [TrackedPose] = []
    private var last = RigidTransform.identity, velocity = RigidTransform.identity, lastFused = RigidTransform.identity
    /// The camera's motion before the head was lost, carried on while looking for it again.
    private var lastMotion = RigidTransform.identity
    /// Every few placed frames' points and their chroma, to check against the finished surface.
    private var kept: [(pose: Int, points: Samples)] = []
    public private(set) var examined = 0, unreadable = 0, lost = 0, fused = 0, found = 0, searched = 0
    /// Frames lost in a row since the last placed one.
    public private(set) var lostRun = 0
    private let clock = ContinuousClock()
    private let started: ContinuousClock.Instant

    /// What one frame came to.
    public enum Outcome: Sendable, Equatable {
        /// No head found yet: nothing is placed before the first view of it.
        case noHeadYet
        /// The frame fixed the world (the first view of the head) or was placed in it.
        case placed(TrackedPose)
        /// The frame could not be placed on the surface fused so far.
        case lost
    }

    /// Whether a frame that cannot be placed is tried once more from the last turn, shifted so
    /// that the head seen in it lies where the fused head does (false). This finds the head
    /// again after the phone stepped back or aside faster than the tracking follows, but it
    /// trusts the last turn: on a plain cap or a bare head nothing confirms it, so the
    /// reconstruction that measures does not do it. The guide does, which only needs to know
    /// roughly where the camera is, and measures nothing with its surface.
    public let recentresWhenLost: Bool

    /// A tracker with `reconstructor`'s settings.
    public init(_ reconstructor: MarkerlessReconstructor, recentresWhenLost: Bool = false) {
        self.recentresWhenLost = recentresWhenLost
        self.reconstructor = reconstructor
        started = clock.now
        let options = reconstructor.options
        // Made again with colour once the first view shows a print (nothing is fused before):
        // a plain cap's volume keeps no colour, and its mesh none.
        volume = TSDFVolume(voxelSize: options.voxelSize, truncation: options.truncation, colors: false)
        volume.threads = options.threads
        // Tracking reaches as far as the signed distance is kept: a coarse volume with a wide
        // band catches motions of several millimetres at the surface, the fine one then places.
        // The coarse volume keeps no colour: its step brings the frame into the fine one's reach,
        // where the print is matched.
        coarse = TSDFVolume(voxelSize: reconstructor.coarseVoxel, truncation: reconstructor.coarseTruncation, colors: false)
        coarse.threads = options.threads
    }

    /// Counts a frame that could not be read.
    public func skipUnreadable() {
        examined += 1
        unreadable += 1
    }

    /// Places `raw` (frame `index` of the recording), and fuses it when the camera has moved on.
    @discardableResult
    public func add(_ raw: RGBDFrame, index: Int) -> Outcome {
        examined += 1
        let options = reconstructor.options
        let f = raw.reading(with: options.camera).removingLensDistortion()
        guard let space = region else { return start(f, index: index) }
        let worker = reconstructor
        var placement = worker.place(f, predicted: velocity * last, last: last, coarse: coarse, fine: volume, region: tracked)
        var foundAgain = false
        if placement == nil, MarkerlessReconstructor.searchesAgain(afterLosing: lostRun) {
            searched += 1
            placement = worker.relocate(f, from: last, moving: lastMotion, for: lostRun + 1, coarse: coarse, fine: volume, region: tracked)
            foundAgain = placement != nil
            if foundAgain { found += 1 }
        }
        if placement == nil, recentresWhenLost, let sphere = HeadInView.sphere(depth: f.depth, intrinsics: f.depthIntrinsics) {
            let rotation = last.rotation
            let start = RigidTransform(rotation: rotation, translation: tracked.centre - rotation.apply(sphere.centre))
            placement = worker.place(f, predicted: start, last: start, coarse: coarse, fine: volume, region: tracked)
            foundAgain = placement != nil
            if foundAgain { found += 1 }
        }
        guard let placed = placement else {
            lost += 1
            if lostRun == 0 { lastMotion = velocity }
            lostRun += 1
            velocity = .identity
            return .lost
        }
        lostRun = 0
        // Each pose is built on the last one: rounding that leaves a rotation slightly
        // stretched would compound through the motion carried on, so both are kept exact.
        // Found again, the move from the last placed frame spans the whole gap: not a
        // frame's motion to carry on.
        velocity = foundAgain ? .identity : (placed.worldFromCamera * last.inverse).orthonormalized
        last = placed.worldFromCamera.orthonormalized
        let moved = lastFused.inverse * last
        let fuse = length(moved.translation) >= worker.fuseTranslation || moved.rotation.angle >= worker.fuseRotation
        if fuse {
            worker.integrate(f, at: last, into: [volume, coarse], region: space)
            lastFused = last
            fused += 1
        }
        let pose = TrackedPose(frameIndex: index, timestamp: f.timestamp, worldFromCamera: last, rms: placed.rms, fused: fuse)
        poses.append(pose)
        if (poses.count - 1) % worker.checkEvery == 0 {
            kept.append((poses.count - 1, worker.thinned(worker.registration.colouredSamples(f, near: last, region: tracked))))
        }
        return .placed(pose)
    }

    /// The first view of the head fixes the world and the space fused.
    private func start(_ f: RGBDFrame, index: Int) -> Outcome {
        guard let (start, inner, noiseScale) = reconstructor.firstSpace(f) else { return .noHeadYet }
        region = start
        tracked = inner
        reconstructor.noiseScale = noiseScale
        let seen = reconstructor.registration.colouredSamples(f, near: .identity, region: tracked)
        reconstructor.usesColour = reconstructor.usesColour && MarkerlessReconstructor.showsPrint(seen)
        if reconstructor.usesColour {
            let options = reconstructor.options
            volume = TSDFVolume(voxelSize: options.voxelSize, truncation: options.truncation, colors: true)
            volume.threads = options.threads
        }
        reconstructor.integrate(f, at: .identity, into: [volume, coarse], region: start)
        let pose = TrackedPose(frameIndex: index, timestamp: f.timestamp, worldFromCamera: .identity, rms: 0, fused: true)
        poses.append(pose)
        kept.append((0, reconstructor.thinned(seen)))
        fused += 1
        return .placed(pose)
    }

    /// The refusal for too few frames placed.
    public var lostError: ReconstructionError {
        reconstructor.lost(placed: poses.count, examined: examined)
    }

    /// The fused surface and every placed frame, each few checked against it; throws when no
    /// head was found, too few frames were placed, or (when `refusesAstray`) the checked frames
    /// show that a placement went astray.
    public func finish(progress: (ReconstructionProgress) -> Void = { _ in }) throws -> MarkerlessReconstruction {
        let worker = reconstructor
        guard let region else {
            if case .wholeView(let maximumDepth) = worker.space {
                throw ReconstructionError.nothingInView(framesSeen: examined, maximumDepth: maximumDepth)
            }
            throw ReconstructionError.noHeadInView(framesSeen: examined)
        }
        // Fewer than half the frames after the first placed: the surface is not to be trusted.
        guard poses.count >= 3, Double(poses.count) >= 0.5 * Double(examined - unreadable) else { throw lostError }
        // On a printed cap the print judges each checked view where it shows; elsewhere the depth.
        let printed = worker.usesColour
        let checked = kept.map { k in
            let check = MarkerlessReconstructor.consistency(
                k.points, at: poses[k.pose].worldFromCamera, fine: volume, coarse: coarse, noiseScale: worker.noiseScale)
            let byPrint = printed ? check.printAgreement : nil
            return CheckedView(frameIndex: poses[k.pose].frameIndex, agreement: byPrint ?? check.agreement, byPrint: byPrint != nil)
        }
        progress(ReconstructionProgress(stage: .meshing, done: 0, total: 1))
        let mesh = volume.extractSurface()
        guard !mesh.faces.isEmpty else { throw ReconstructionError.emptySurface }
        let result = MarkerlessReconstruction(
            mesh: mesh, region: region, poses: poses, framesExamined: examined, framesUnreadable: unreadable, framesLost: lost,
            framesFused: fused, framesFoundAgain: found, framesSearched: searched, matchedColour: printed, seconds: (clock.now - started).seconds,
            checked: checked)
        if worker.refusesAstray { try result.checkAgreement(minimum: worker.minimumAgreement, print: worker.minimumPrintAgreement) }
        return result
    }
}

/// Where the head is in one depth picture, without markers: the sphere the reconstruction
/// without markers starts from (the nearest head-sized surface in the middle of the picture),
/// in the depth camera's frame, metres; nil when the picture shows none.
public func headSphere(depth: DepthImage, intrinsics: CameraIntrinsics) -> (centre: SIMD3<Double>, radius: Double)? {
    HeadInView.sphere(depth: depth, intrinsics: intrinsics)
}
