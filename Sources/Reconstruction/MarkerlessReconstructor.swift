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
/// the face and ears are in it). Metric scale comes from the depth alone. On a plain cap
/// nothing anchors the poses but the surface: where it is smooth and round (the back of the
/// head) a turn about the head's centre hardly changes it, and the registration then holds the
/// predicted pose (`SurfaceRegistration`'s prior), so error there grows as drift. On a printed
/// cap the print's colours are matched too and hold that turn. There is no loop closure.
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
    /// Whether the frames' colour is fused and matched as well as their depth where the first
    /// view of the head shows a print: a printed cap's pattern fixes the turns about the head's
    /// centre that the depth of a round vault leaves open (on a plain cap colour is never
    /// matched: its hairline and eyes pulled placements astray more than they held them).
    public var usesColour = true
    /// What is tracked and fused: the head in the middle of the first view, or (to measure the
    /// tracking itself on public recordings of other scenes) everything the first view shows.
    public var space: TrackedSpace = .head
    /// How much noisier the first view's depth is than a head's at 30 cm (`firstSpace`): the
    /// gates on how far the placed views' points lie off the surface widen by it.
    var noiseScale = 1.0
    /// The gate on a placement's residual for this scan's depth: `maximumRMS` widened by its noise.
    var placementRMS: Double { maximumRMS * noiseScale }

    /// What the frames are registered on.
    public enum TrackedSpace: Sendable {
        /// The head-sized surface in the middle of the first view (`HeadInView`).
        case head
        /// The whole first view within `maximumDepth` metres: no head is looked for, nothing
        /// is left out as neck or shoulder.
        case wholeView(maximumDepth: Double)
    }

    /// Registers every `pixelStep`-th depth pixel each way and needs `minimumPoints` of them to
    /// place a frame (for pictures smaller than the TrueDepth camera's, as in tests).
    public mutating func sample(every pixelStep: Int, needing minimumPoints: Int) {
        registration.pixelStep = max(1, pixelStep)
        registration.minimumPoints = max(1, minimumPoints)
    }

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
        let tracker = MarkerlessTracker(self)
        let indices = Array(stride(from: 0, to: frameCount, by: max(1, options.frameStride)))
        for (n, index) in indices.enumerated() {
            if isCancelled() { throw ReconstructionError.cancelled }
            progress(ReconstructionProgress(stage: .fusion, done: n, total: indices.count))
            guard let raw = try? frame(index) else {
                tracker.skipUnreadable()
                continue
            }
            guard case .lost = tracker.add(raw, index: index) else { continue }
            // Refused as soon as even placing every frame left would not place half: the
            // search for a head that stays away would only cost time.
            if tracker.poses.count + (indices.count - n - 1) < (indices.count - tracker.unreadable + 1) / 2 {
                throw tracker.lostError
            }
        }
        return try tracker.finish(progress: progress)
    }

    /// How many placed frames apart the frames checked against the finished surface are.
    public var checkEvery = 5
    /// Least share of a checked frame's points on the finished surface that nine checked
    /// frames in ten reach (each judged by its own measure, below); below it the placement went
    /// astray somewhere and the scan is refused (when `refusesAstray`). Set on 20 simulated scans of a plain cap: those tracked
    /// throughout reached 0.93-0.99, those that went astray (12° to 129°) 0.72-0.90.
    public var minimumAgreement = 0.92
    /// The same on a printed cap, for the share of a checked view's points on the print that
    /// land on the same colour of it (a view that shows too little of the print is judged by
    /// its depth, against `minimumAgreement`).
    public var minimumPrintAgreement = 0.9
    public var refusesAstray = true

    func integrate(_ f: RGBDFrame, at pose: RigidTransform, into volumes: [TSDFVolume], region: FusionRegion) {
        for v in volumes {
            v.integrate(
                depth: f.depth, intrinsics: f.depthIntrinsics, worldFromCamera: pose, region: region, color: usesColour ? f.color : nil,
                colorIntrinsics: f.colorIntrinsics)
        }
    }

    /// The registration on the coarse volume: fewer points (every second sample each way),
    /// residuals and prior scaled to its wider band.
    var coarseRegistration: SurfaceRegistration {
        var wide = registration
        wide.pixelStep = registration.pixelStep * 2
        wide.minimumPoints = registration.minimumPoints / 4
        wide.huber = coarseTruncation / 3
        wide.priorRotation *= 3
        wide.priorTranslation *= 3
        // On a printed cap the fine step's colour finishes what the coarse one starts: it may
        // stop at steps of 1 mrad (70 µm at the vault) and 0.1 mm.
        if usesColour {
            wide.stopTurn = 1e-3
            wide.stopShift = 1e-4
        }
        return wide
    }

    /// About a thousand of `samples`, evenly through them.
    func thinned(_ samples: Samples) -> Samples {
        let step = max(1, samples.points.count / 1000)
        let kept = Array(stride(from: 0, to: samples.points.count, by: step))
        return (kept.map { samples.points[$0] }, kept.map { samples.chroma[$0] })
    }

    /// The frame registered from the prediction, or failing that from the last pose; nil when
    /// neither lands it on the surface closely enough (and, on a printed cap, on the same
    /// colours of the print).
    func place(
        _ f: RGBDFrame, predicted: RigidTransform, last: RigidTransform, coarse: TSDFVolume, fine: TSDFVolume, region: FusionRegion
    ) -> SurfaceRegistration.Result? {
        let wide = coarseRegistration
        // With no motion to carry on (the head just lost, or found again) the prediction is the
        // last pose: registering from it twice would only repeat the same failure.
        for start in predicted == last ? [last] : [predicted, last] {
            let near = register(f, with: wide, from: start, on: coarse, region: region)
            if let r = register(f, with: registration, from: near?.worldFromCamera ?? start, on: fine, region: region), r.rms <= placementRMS,
                printConfirms(f, at: r.worldFromCamera, fine: fine, coarse: coarse, region: region)
            {
                return r
            }
        }
        return nil
    }
}

extension MarkerlessReconstructor {
    /// Too few frames placed: of a head, or of a whole view.
    func lost(placed: Int, examined: Int) -> ReconstructionError {
        if case .wholeView = space { return .viewLost(placed: placed, examined: examined) }
        return .trackingLost(placed: placed, examined: examined)
    }

    /// A whole view's gate on the placement's residual grows with its depth's noise, as the
    /// square of its median distance past this (metres): `maximumRMS` is set for a head at a
    /// front camera's 30 cm.
    static let headDistance = 0.3

    /// The space fused and the space tracked, from the first view that shows what is tracked,
    /// and how much noisier than a head's its depth is; nil when this view does not show it.
    func firstSpace(_ f: RGBDFrame) -> (fused: FusionRegion, tracked: FusionRegion, noiseScale: Double)? {
        switch space {
        case .head:
            guard let sphere = HeadInView.sphere(depth: f.depth, intrinsics: f.depthIntrinsics) else { return nil }
            return (
                FusionRegion(centre: sphere.centre, radius: sphere.radius * regionScale),
                FusionRegion(centre: sphere.centre, radius: sphere.radius * trackedScale), 1
            )
        case .wholeView(let maximumDepth):
            guard let whole = WholeView.sphere(depth: f.depth, intrinsics: f.depthIntrinsics, maximumDepth: maximumDepth) else { return nil }
            let far = whole.medianDepth / Self.headDistance
            return (whole.region, whole.region, max(1, far * far))
        }
    }

    /// Whether the print, where the frame shows it, lies on the same colours of the fused
    /// print at `pose`; always true when colour is not matched. On a round vault a placement
    /// turned about the head's centre fits the depth as well as the right one.
    func printConfirms(_ f: RGBDFrame, at pose: RigidTransform, fine: TSDFVolume, coarse: TSDFVolume, region: FusionRegion) -> Bool {
        guard usesColour else { return true }
        // A thousand points judge it as well as all of them.
        let samples = thinned(registration.colouredSamples(f, near: pose, region: region))
        return Self.consistency(samples, at: pose, fine: fine, coarse: coarse).printAgreement.map { $0 >= minimumPrintAgreement } ?? true
    }

    func register(
        _ f: RGBDFrame, with registration: SurfaceRegistration, from start: RigidTransform, on volume: TSDFVolume, region: FusionRegion
    ) -> SurfaceRegistration.Result? {
        guard usesColour, volume.fusesColor else {
            return registration.register(depth: f.depth, intrinsics: f.depthIntrinsics, predicted: start, volume: volume, region: region)
        }
        let (points, chroma) = registration.colouredSamples(f, near: start, region: region)
        return registration.register(points: points, chroma: chroma, predicted: start, volume: volume, about: region.centre)
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
    /// Frames placed again after the head was lost, by searching around where the camera
    /// was going (only where the surface's colour can confirm the place).
    public var framesFoundAgain = 0
    /// Frames on which the lost head was searched for (`MarkerlessReconstructor.searchesAgain`).
    public var framesSearched = 0
    /// Whether the cap showed a print, so that colour was matched as well as depth.
    public var matchedColour = false
    public var seconds: Double
    /// Every few placed frames, how well it lies on the finished surface where it was placed.
    /// A placement that went astray and was fused leaves earlier and later frames off the
    /// surface that averaged them.
    public var checked: [CheckedView] = []

    /// The share of points on the finished surface that nine checked frames in ten reach (a
    /// placement astray for a while spoils the frames around it, not most of the scan).
    public var agreement: Double? {
        let shares = checked.map(\.agreement).sorted()
        return shares.isEmpty ? nil : shares[shares.count / 10]
    }

    /// Throws when more than a tenth of the checked views fall under their own least share:
    /// `minimum` for a view judged by its depth, `print` for one judged by the print.
    public func checkAgreement(minimum: Double, print: Double? = nil) throws(ReconstructionError) {
        let limit = { (view: CheckedView) in view.byPrint ? print ?? minimum : minimum }
        let worst = checked.sorted { $0.agreement - limit($0) < $1.agreement - limit($1) }
        guard !worst.isEmpty else { return }
        let view = worst[worst.count / 10]
        if view.agreement < limit(view) { throw .placementWentAstray(agreement: view.agreement, onPrint: view.byPrint) }
    }
}

/// A placed view checked against the finished surface.
public struct CheckedView: Sendable, Equatable {
    public var frameIndex: Int
    /// The share of its points within 2 mm of the finished surface; where it was judged by
    /// the print, the share of its points on the print that land on the same colour of it.
    public var agreement: Double
    public var byPrint: Bool

    public init(frameIndex: Int, agreement: Double, byPrint: Bool = false) {
        self.frameIndex = frameIndex
        self.agreement = agreement
        self.byPrint = byPrint
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
        var all: [SIMD3<Double>] = [], middle: [Double] = []
        depth.forEachPoint(step: 4, intrinsics: k, nearest: 0.1, farthest: 1.5) { x, y, p in
            all.append(p)
            if abs(x - depth.width / 2) < depth.width / 6, abs(y - depth.height / 2) < depth.height / 6 { middle.append(p.z) }
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

/// Everything a depth frame shows, as one sphere.
enum WholeView {
    /// Fewest depth points (of every fourth pixel each way) that make a view.
    static let minimumPoints = 400

    /// The sphere about the frame's points nearer than `maximumDepth` (their mean, reaching the
    /// farthest of them and a tenth more, for the views after it) and their median depth; nil
    /// when too few.
    static func sphere(depth: DepthImage, intrinsics k: CameraIntrinsics, maximumDepth: Double) -> (region: FusionRegion, medianDepth: Double)? {
        var points: [SIMD3<Double>] = []
        depth.forEachPoint(step: 4, intrinsics: k, nearest: 0.1, farthest: maximumDepth) { _, _, p in points.append(p) }
        guard points.count >= minimumPoints else { return nil }
        let centre = points.reduce(SIMD3<Double>.zero, +) / Double(points.count)
        let reach = points.map { length($0 - centre) }.max() ?? 0
        let depths = points.map(\.z).sorted()
        return (FusionRegion(centre: centre, radius: reach * 1.1), depths[depths.count / 2])
    }
}
