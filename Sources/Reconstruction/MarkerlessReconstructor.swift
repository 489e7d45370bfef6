import Foundation
import Geometry
import Imaging
import Recording

/// Scan → poses → fused head mesh without cap markers: each frame's depth registered against
/// the surface fused so far (frame-to-model, as KinectFusion tracks), starting from where the
/// previous frames were going, and fused when the camera has moved on.
///
/// The first frame that shows a head-sized surface in the middle of the picture fixes the
/// world (its camera frame) and the space fused (a sphere fitted to that surface, widened so
/// the face and ears are in it). Metric scale comes from the depth alone. Nothing anchors the
/// poses but the surface: where it is smooth and round (the back of the head) a turn about
/// the head's centre hardly changes it, and the registration then holds the predicted pose
/// (`SurfaceRegistration`'s prior), so error there grows as drift. There is no loop closure.
public struct MarkerlessReconstructor: Sendable {
    public var options: ReconstructionOptions
    /// A frame whose points lie farther than this from the surface on average (metres) after
    /// registration is not placed.
    public var maximumRMS = 0.0025
    /// The space fused is the first view's fitted sphere widened by this; the frames are
    /// registered on the part of it within `trackedScale` of the sphere (the head, not the
    /// neck and shoulders, which move against it).
    public var regionScale = 1.35
    public var trackedScale = 1.15
    /// A frame is fused once the camera moved this far (metres) or turned this much (radians)
    /// since the last fused frame.
    public var fuseTranslation = 0.01
    public var fuseRotation = 4.0 * Double.pi / 180
    /// The coarse volume tracking starts in: voxel and band, metres.
    public var coarseVoxel = 0.002
    public var coarseTruncation = 0.015
    /// More iterations than the marker path's: the prediction is only the camera's last
    /// motion carried on, not a pose from markers.
    var registration = SurfaceRegistration(iterations: 30, stopTurn: 1e-4)

    public init(options: ReconstructionOptions = .init()) {
        self.options = options
    }

    /// Reconstructs from `frameCount` frames that `frame(i)` reads (nil or a throw: the frame
    /// is unreadable and counted as rejected), every `options.frameStride`-th frame.
    public func reconstruct(
        frameCount: Int, frame: (Int) throws -> RGBDFrame?, progress: (ReconstructionProgress) -> Void = { _ in },
        isCancelled: () -> Bool = { false }
    ) throws -> MarkerlessReconstruction {
        guard frameCount > 0 else { throw ReconstructionError.emptyScan }
        let clock = ContinuousClock()
        let started = clock.now
        let volume = TSDFVolume(voxelSize: options.voxelSize, truncation: options.truncation, colors: false)
        volume.threads = options.threads
        // Tracking reaches as far as the signed distance is kept: a coarse volume with a wide
        // band catches motions of several millimetres at the surface, the fine one then places.
        let coarse = TSDFVolume(voxelSize: coarseVoxel, truncation: coarseTruncation, colors: false)
        coarse.threads = options.threads
        var region: FusionRegion?, tracked = FusionRegion(centre: .zero, radius: 0)
        var poses: [TrackedPose] = []
        var last = RigidTransform.identity, velocity = RigidTransform.identity, lastFused = RigidTransform.identity
        var examined = 0, unreadable = 0, lost = 0, fused = 0
        // Every few placed frames' points, to check against the finished surface.
        var kept: [(pose: Int, points: [SIMD3<Double>])] = []
        let indices = Array(stride(from: 0, to: frameCount, by: max(1, options.frameStride)))
        for (n, index) in indices.enumerated() {
            if isCancelled() { throw ReconstructionError.cancelled }
            progress(ReconstructionProgress(stage: .fusion, done: n, total: indices.count))
            examined += 1
            guard let raw = try? frame(index) else { unreadable += 1; continue }
            let f = raw.reading(with: options.camera).removingLensDistortion()
            guard let space = region else {
                // Frames before the head is found are not placed.
                guard let sphere = HeadInView.sphere(depth: f.depth, intrinsics: f.depthIntrinsics) else { continue }
                let start = FusionRegion(centre: sphere.centre, radius: sphere.radius * regionScale)
                region = start
                tracked = FusionRegion(centre: sphere.centre, radius: sphere.radius * trackedScale)
                volume.integrate(depth: f.depth, intrinsics: f.depthIntrinsics, worldFromCamera: .identity, region: start)
                coarse.integrate(depth: f.depth, intrinsics: f.depthIntrinsics, worldFromCamera: .identity, region: start)
                poses.append(TrackedPose(frameIndex: index, timestamp: f.timestamp, worldFromCamera: .identity, rms: 0, fused: true))
                kept.append((0, thinned(registration.samples(f.depth, intrinsics: f.depthIntrinsics, near: .identity, region: tracked))))
                fused += 1
                continue
            }
            guard let placed = place(f, predicted: velocity * last, last: last, coarse: coarse, fine: volume, region: tracked) else {
                lost += 1
                velocity = .identity
                continue
            }
            // Each pose is built on the last one: rounding that leaves a rotation slightly
            // stretched would compound through the motion carried on, so both are kept exact.
            velocity = (placed.worldFromCamera * last.inverse).orthonormalized
            last = placed.worldFromCamera.orthonormalized
            let moved = lastFused.inverse * last
            let fuse = length(moved.translation) >= fuseTranslation || moved.rotation.angle >= fuseRotation
            if fuse {
                volume.integrate(depth: f.depth, intrinsics: f.depthIntrinsics, worldFromCamera: last, region: space)
                coarse.integrate(depth: f.depth, intrinsics: f.depthIntrinsics, worldFromCamera: last, region: space)
                lastFused = last
                fused += 1
            }
            poses.append(TrackedPose(frameIndex: index, timestamp: f.timestamp, worldFromCamera: last, rms: placed.rms, fused: fuse))
            if (poses.count - 1) % checkEvery == 0 {
                kept.append((poses.count - 1, thinned(registration.samples(f.depth, intrinsics: f.depthIntrinsics, near: last, region: tracked))))
            }
        }
        guard let region else { throw ReconstructionError.noHeadInView(framesSeen: examined) }
        // Fewer than half the frames after the first placed: the surface is not to be trusted.
        guard poses.count >= 3, Double(poses.count) >= 0.5 * Double(examined - unreadable) else {
            throw ReconstructionError.trackingLost(placed: poses.count, examined: examined)
        }
        let agreement = kept.map { k in Self.agreement(k.points, at: poses[k.pose].worldFromCamera, volume: volume) }
        progress(ReconstructionProgress(stage: .meshing, done: 0, total: 1))
        let mesh = volume.extractSurface()
        guard !mesh.faces.isEmpty else { throw ReconstructionError.emptySurface }
        let result = MarkerlessReconstruction(
            mesh: mesh, region: region, poses: poses, framesExamined: examined, framesUnreadable: unreadable, framesLost: lost,
            framesFused: fused, seconds: (clock.now - started).seconds, checked: zip(kept, agreement).map { (poses[$0.0.pose].frameIndex, $0.1) })
        if refusesAstray { try result.checkAgreement(minimum: minimumAgreement) }
        return result
    }

    /// How many placed frames apart the frames checked against the finished surface are.
    public var checkEvery = 5
    /// Least share of a checked frame's points on the finished surface that nine checked
    /// frames in ten reach; below it the placement went astray somewhere and the scan is
    /// refused (when `refusesAstray`). Set on 20 simulated scans of a plain cap: those tracked
    /// throughout reached 0.93-0.99, those that went astray (12° to 129°) 0.72-0.90.
    public var minimumAgreement = 0.92
    public var refusesAstray = true

    /// About a thousand of `points`, evenly through them.
    private func thinned(_ points: [SIMD3<Double>]) -> [SIMD3<Double>] {
        let step = max(1, points.count / 1000)
        return stride(from: 0, to: points.count, by: step).map { points[$0] }
    }

    /// The share of `points` (camera frame) that lie within 2 mm of the surface at `pose`.
    static func agreement(_ points: [SIMD3<Double>], at pose: RigidTransform, volume: TSDFVolume) -> Double {
        guard !points.isEmpty else { return 0 }
        let near = points.filter { p in volume.signedDistance(at: pose.apply(p)).map { abs($0.distance) <= 0.002 } ?? false }
        return Double(near.count) / Double(points.count)
    }

    /// The frame registered from the prediction, or failing that from the last pose; nil when
    /// neither lands it on the surface closely enough.
    private func place(
        _ f: RGBDFrame, predicted: RigidTransform, last: RigidTransform, coarse: TSDFVolume, fine: TSDFVolume, region: FusionRegion
    ) -> SurfaceRegistration.Result? {
        var wide = registration
        // A coarse step needs fewer points: every second sample each way.
        wide.pixelStep = registration.pixelStep * 2
        wide.minimumPoints = registration.minimumPoints / 4
        wide.huber = coarseTruncation / 3
        wide.priorRotation *= 3
        wide.priorTranslation *= 3
        for start in [predicted, last] {
            let near = wide.register(depth: f.depth, intrinsics: f.depthIntrinsics, predicted: start, volume: coarse, region: region)
            if let r = registration.register(
                depth: f.depth, intrinsics: f.depthIntrinsics, predicted: near?.worldFromCamera ?? start, volume: fine, region: region),
                r.rms <= maximumRMS
            {
                return r
            }
        }
        return nil
    }
}

extension RigidTransform {
    /// The nearest proper rigid transform: the rotation's columns made orthonormal again
    /// (Gram–Schmidt from the first).
    var orthonormalized: RigidTransform {
        let (a, b, _) = rotation.columns
        let x = normalized(a)
        let y = normalized(b - x * dot(x, b))
        return RigidTransform(rotation: Rotation3(columns: (x, y, cross(x, y))), translation: translation)
    }
}

/// One frame placed without markers.
public struct TrackedPose: Sendable, Equatable {
    public var frameIndex: Int
    public var timestamp: Double
    /// Camera to the world (the first placed frame's camera frame).
    public var worldFromCamera: RigidTransform
    /// The depth points' root mean square distance from the fused surface, metres.
    public var rms: Double
    /// Whether its depth was fused.
    public var fused: Bool
}

/// What a scan without markers gave.
public struct MarkerlessReconstruction: Sendable {
    /// The fused surface, metres, in the first placed frame's camera frame.
    public var mesh: TriangleMesh
    public var region: FusionRegion
    public var poses: [TrackedPose]
    public var framesExamined: Int
    public var framesUnreadable: Int
    /// Frames read but not placed on the surface.
    public var framesLost: Int
    public var framesFused: Int
    public var seconds: Double
    /// Every few placed frames: the frame and the share of its points within 2 mm of the
    /// finished surface where it was placed. A placement that went astray and was fused leaves
    /// earlier and later frames off the surface that averaged them.
    public var checked: [(frameIndex: Int, agreement: Double)] = []

    /// The share of points on the finished surface that nine checked frames in ten reach (a
    /// placement astray for a while spoils the frames around it, not most of the scan).
    public var agreement: Double? {
        let shares = checked.map(\.agreement).sorted()
        return shares.isEmpty ? nil : shares[shares.count / 10]
    }

    /// Throws when `agreement` is under `minimum`.
    public func checkAgreement(minimum: Double) throws(ReconstructionError) {
        if let agreement, agreement < minimum { throw .placementWentAstray(agreement: agreement) }
    }
}

/// Where the head is in a single depth frame, without markers.
enum HeadInView {
    /// Head-sized spheres, radius metres.
    static let radii = 0.045...0.1

    /// The sphere fitted to the nearest surface at the picture's middle: that surface is the
    /// head's front, so the head's centre lies about a head's radius behind it; the points
    /// within `reach` of that guess are fitted, then again those within 8 mm of the sphere and
    /// within `reach` of its centre, four times (the body, a shoulder or a hand beside the head
    /// fall out).
    static func sphere(depth: DepthImage, intrinsics k: CameraIntrinsics) -> (centre: SIMD3<Double>, radius: Double)? {
        let step = 4
        var all: [SIMD3<Double>] = [], middle: [Double] = []
        for y in stride(from: step / 2, to: depth.height, by: step) {
            for x in stride(from: step / 2, to: depth.width, by: step) {
                let z = Double(depth.pixels[y * depth.width + x])
                guard z.isFinite, z > 0.1, z < 1.5 else { continue }
                all.append(k.unproject(SIMD2(Double(x), Double(y)), depth: z))
                if abs(x - depth.width / 2) < depth.width / 6, abs(y - depth.height / 2) < depth.height / 6 { middle.append(z) }
            }
        }
        guard middle.count >= 20 else { return nil }
        let near = middle.sorted()[middle.count / 10]
        let front = k.unproject(SIMD2(Double(depth.width) / 2, Double(depth.height) / 2), depth: near)
        var fitted = (centre: front + normalized(front) * typicalRadius, radius: typicalRadius)
        var points = all.filter { length($0 - fitted.centre) <= reach }
        for _ in 0..<5 {
            guard points.count >= 50, let s = MarkerMap.sphere(through: points) else { return nil }
            fitted = s
            points = all.filter { abs(length($0 - s.centre) - s.radius) <= 0.008 && length($0 - s.centre) <= reach }
        }
        guard radii.contains(fitted.radius), fitted.centre.z > near else { return nil }
        return fitted
    }

    /// An infant's head's radius, roughly (metres), and how far from its centre a point can
    /// still be the head's.
    static let typicalRadius = 0.07
    static let reach = 0.1
}
