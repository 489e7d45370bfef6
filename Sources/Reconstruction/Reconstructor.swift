import Foundation
import Geometry
import Imaging
import Markers
import Recording

/// Settings of a reconstruction.
public struct ReconstructionOptions: Sendable {
    /// Use every n-th frame for markers (1 = all).
    public var frameStride = 1
    /// The stride for a walk around a head at 30 frames a second: at every third frame the
    /// map, the surface and the CVAI are as good as at every frame (the reconstruction
    /// benchmark), since the frames between add no keyframe.
    public static let headScanStride = 3
    /// A registered frame becomes a keyframe after this much camera travel (metres) ...
    public var keyframeTranslation = 0.02
    /// ... or this much rotation (radians) since the last keyframe, or when it adds markers.
    public var keyframeRotation = 8.0 * Double.pi / 180
    /// TSDF voxel edge, metres.
    public var voxelSize = 0.001
    /// TSDF truncation distance, metres.
    public var truncation = 0.004
    /// Head region radius as a multiple of the sphere fitted to the cap.
    public var regionScale = 1.4
    /// How far the head region's centre lies below the cap's sphere's, as a multiple of its
    /// radius: the cap covers the vault, and the face and ears lie below it.
    public var regionDrop = 0.35
    /// Largest sphere the cap may fit and still be taken for a head, metres (an adult's head
    /// is under 0.1 m); markers on anything flatter bound the fusion by their own extent.
    public var maximumHeadRadius = 0.12
    /// Iterations of the robust 3D pre-alignment of the bundle adjustment.
    public var bundleIterations = 15
    /// Finish the bundle adjustment with joint Levenberg–Marquardt iterations on reprojection
    /// and depth residuals (0 = stop after the 3D pre-alignment).
    public var jointBundleIterations = 8
    /// Whether the joint bundle adjustment estimates the focal length too (the factory value
    /// is its prior); the fusion and every later use of the frames then use the estimate.
    public var estimatesFocalLength = true
    /// How far the focal length may be from the factory value a priori (relative, one sigma).
    public var focalPriorSigma = 0.05
    /// The estimate replaces the factory focal length only when they differ by more than this
    /// (relative): below it the estimate's own small biases (corner detection, depth) would
    /// cost more than a good factory calibration.
    public var focalOverrideThreshold = 0.01
    /// Whether the principal point is estimated with the focal length and applied whatever its
    /// size. Off for heads: a walk around a head hardly tells a shifted centre from a turned
    /// camera. On for a board recorded from many tilts (`headscan calibrate`).
    public var estimatesPrincipalPoint = false
    /// How far the principal point may be from the factory value a priori (pixels, one sigma).
    public var principalPointPriorSigma = 20.0
    /// Whether the lens's first radial distortion term is estimated (on top of the recorded
    /// one): a board that fills the picture from many views supports it, a head hardly does.
    /// It is reported, not applied to the reconstruction.
    public var estimatesDistortion = false
    /// How far k1 may be from the recorded value a priori (one sigma).
    public var distortionPriorSigma = 0.2
    /// The depth sensor's noise: how far each marker's depth is trusted against its picture.
    public var depthNoise = DepthNoiseModel.trueDepth
    /// Fuse colour into the volume and colour the mesh's vertices.
    public var fuseColor = false
    /// Fuse the depth into a surface; false stops after the marker map and the poses, as
    /// calibrating with a flat board needs (a plane has no head to fuse).
    public var fuseSurface = true
    /// Threads for marker detection and fusion; the results do not depend on it.
    public var threads = availableCores()
    /// Whether the surface under each mapped sticker is interpolated from the head around it
    /// (flat labels stand proud of a curved cap); nil leaves the fused surface as it is.
    public var stickerFlattening: StickerFlattening? = StickerFlattening()

    /// The defaults.
    public init() {}
}

/// The stages of a reconstruction, in order. The raw value keys `stageSeconds`.
public enum ReconstructionStage: String, Sendable, Codable, CaseIterable {
    case markers, bundleAdjustment, fusion, meshing

    /// The stage in words, for progress bars.
    public var label: String {
        switch self {
        case .markers: "markers"
        case .bundleAdjustment: "bundle adjustment"
        case .fusion: "fusion"
        case .meshing: "meshing"
        }
    }
}

/// What the reconstruction is doing, for progress bars.
public struct ReconstructionProgress: Sendable {
    public var stage: ReconstructionStage
    /// Units done in this stage.
    public var done: Int
    /// Units in this stage.
    public var total: Int
}

/// Numbers about a finished reconstruction.
public struct ReconstructionStatistics: Sendable, Codable, Equatable {
    /// Frames in the scan.
    public var framesTotal = 0
    /// Frames examined (after the stride).
    public var framesExamined = 0
    /// Frames placed on the marker map.
    public var framesUsed = 0
    /// Examined frames that could not be placed (too few markers, unreadable, outliers).
    public var framesRejected = 0
    /// Keyframes refined and fused.
    public var keyframes = 0
    /// Markers in the map.
    public var markersMapped = 0
    /// RMS of the map's corners reprojected into the keyframes against the detections, pixels.
    public var reprojectionRMSPixels = 0.0
    /// The same before the bundle adjustment (incremental map and poses).
    public var reprojectionRMSPixelsInitial = 0.0
    /// The same after the robust 3D stage of the bundle adjustment, before the joint stage.
    public var reprojectionRMSPixels3D = 0.0
    /// RMS of the keyframes' 3D corners against the map after refinement, millimetres.
    public var cornerRMSMillimetres = 0.0
    /// Allocated TSDF blocks (8³ voxels each).
    public var voxelBlocks = 0
    /// Memory of the voxel data, bytes.
    public var volumeBytes = 0
    /// Vertices and triangles of the mesh.
    public var vertices = 0
    public var triangles = 0
    /// Seconds per stage ("markers", "bundleAdjustment", "fusion", "meshing"), and of the
    /// TSDF integration within fusion alone ("fusionIntegration", without reading frames).
    public var stageSeconds: [String: Double] = [:]
    /// The estimated focal length over the recorded (factory) one, and its standard deviation;
    /// nil when the focal length was not estimated.
    public var focalScale: Double?
    public var focalScaleSigma: Double?
    /// The focal scale the reconstruction was made with, when the estimate replaced the factory
    /// value (it differed by more than `focalOverrideThreshold`); nil: the factory value.
    public var focalScaleApplied: Double?

    /// The estimated principal point minus the recorded one (pixels, x and y) and its standard
    /// deviations; nil when the principal point was held.
    public var principalPointShift: [Double]?
    public var principalPointSigma: [Double]?

    /// The lens's estimated first radial term (the recorded one plus what the estimate added)
    /// and its standard deviation; nil when it was not estimated.
    public var distortionK1: Double?
    public var distortionK1Sigma: Double?

    /// What flattening the stickers onto the head did; nil when it was not asked for.
    public var stickers: StickerFlattening.Report?

    /// What the frames are read with: the focal scale applied and the principal point shift.
    public var appliedCorrection: CameraCorrection {
        CameraCorrection(
            focalScale: focalScaleApplied ?? 1,
            principalShift: principalPointShift.map { $0.count == 2 ? SIMD2($0[0], $0[1]) : .zero } ?? .zero)
    }

    /// Nothing counted yet.
    public init() {}
}

/// The outcome: marker map, keyframe poses and the fused head surface, all in the frame of
/// the first keyframe's camera.
public struct Reconstruction: Sendable {
    /// The cap's markers.
    public var map: MarkerMap
    /// Refined keyframes.
    public var keyframes: [Keyframe]
    /// The head surface, metres.
    public var mesh: TriangleMesh
    /// The region that was fused.
    public var region: HeadRegion
    /// Numbers for reports.
    public var statistics: ReconstructionStatistics
}

/// Scan → marker map → poses → fused head mesh.
public struct Reconstructor: Sendable {
    /// The cap the infant wore.
    public var layout: CapLayout
    /// Settings.
    public var options: ReconstructionOptions

    /// A reconstructor for scans made with `layout`.
    public init(layout: CapLayout = .standard, options: ReconstructionOptions = .init()) {
        self.layout = layout
        self.options = options
    }

    /// Reconstructs from `frameCount` frames that `frame(i)` reads (nil or a throw: the frame
    /// is unreadable and counted as rejected). Frames whose cameras have lens distortion are
    /// resampled to pinhole pictures first. Frames are read twice: once for markers, once for
    /// the keyframes' depth, so memory stays bounded by one frame.
    public func reconstruct(
        frameCount: Int, frame: (Int) throws -> RGBDFrame?, progress: (ReconstructionProgress) -> Void = { _ in },
        isCancelled: () -> Bool = { false }
    ) throws -> Reconstruction {
        try run(frameCount: frameCount, frame: frame, concurrentFrame: nil, progress: progress, isCancelled: isCancelled)
    }

    /// The same, for a source that several threads may read at once (a `ScanReader`): frames
    /// are then decoded on every thread too. The result is the same.
    public func reconstruct(
        frameCount: Int, concurrentFrame: @escaping @Sendable (Int) throws -> RGBDFrame?,
        progress: (ReconstructionProgress) -> Void = { _ in }, isCancelled: () -> Bool = { false }
    ) throws -> Reconstruction {
        try run(frameCount: frameCount, frame: concurrentFrame, concurrentFrame: concurrentFrame, progress: progress, isCancelled: isCancelled)
    }

    private func run(
        frameCount: Int, frame: (Int) throws -> RGBDFrame?, concurrentFrame: (@Sendable (Int) throws -> RGBDFrame?)?,
        progress: (ReconstructionProgress) -> Void, isCancelled: () -> Bool
    ) throws -> Reconstruction {
        guard frameCount > 0 else { throw ReconstructionError.emptyScan }
        var stats = ReconstructionStatistics()
        stats.framesTotal = frameCount
        // A lens with distortion is corrected in the pictures once, as they are read.
        func pinholeFrame(_ index: Int) throws -> RGBDFrame? { try frame(index)?.removingLensDistortion() }
        var (map, keyframes, colorK, seen, recordedDistortion) = try timed(.markers, &stats) {
            try buildMap(
                frameCount: frameCount, frame: frame, concurrentFrame: concurrentFrame, stats: &$0, progress: progress,
                isCancelled: isCancelled)
        }
        try timed(.bundleAdjustment, &stats) { stats in
            progress(ReconstructionProgress(stage: .bundleAdjustment, done: 0, total: 1))
            refine(&keyframes, &map, intrinsics: colorK, stats: &stats)
            if stats.appliedCorrection != .none {
                try rebuild(seen, through: colorK, &keyframes, &map, stats: &stats)
            }
            // The estimate was made on pictures with the recorded distortion removed.
            stats.distortionK1? += recordedDistortion.k1
        }
        guard options.fuseSurface else {
            let corners = map.corners.values.joined()
            let centre = corners.reduce(SIMD3<Double>.zero, +) / Double(max(1, corners.count))
            return Reconstruction(map: map, keyframes: keyframes, mesh: TriangleMesh(), region: HeadRegion(centre: centre, radius: 0), statistics: stats)
        }
        let (volume, region) = try timed(.fusion, &stats) {
            try fuse(
                keyframes, map: map, frame: pinholeFrame, concurrentFrame: concurrentFrame, stats: &$0, progress: progress,
                isCancelled: isCancelled)
        }
        let mesh = try timed(.meshing, &stats) { stats in
            progress(ReconstructionProgress(stage: .meshing, done: 0, total: 1))
            var mesh = volume.extractSurface()
            guard !mesh.faces.isEmpty else { throw ReconstructionError.emptySurface }
            stats.vertices = mesh.vertices.count
            stats.triangles = mesh.faces.count
            if let flattening = options.stickerFlattening {
                let cells = (try? layout.dictionary().markerSize).map { $0 + 2 } ?? 6
                stats.stickers = flattening.apply(
                    to: &mesh, map: map, headCentre: map.fittedSphere()?.centre ?? region.centre, cellsPerSide: cells,
                    voxelSize: options.voxelSize)
            }
            return mesh
        }
        return Reconstruction(map: map, keyframes: keyframes, mesh: mesh, region: region, statistics: stats)
    }

    /// Runs one stage and keeps its seconds in `stats`.
    private func timed<T>(
        _ stage: ReconstructionStage, _ stats: inout ReconstructionStatistics, _ body: (inout ReconstructionStatistics) throws -> T
    ) rethrows -> T {
        let clock = ContinuousClock()
        let start = clock.now
        defer { stats.stageSeconds[stage.rawValue] = (clock.now - start).seconds }
        return try body(&stats)
    }

    /// Stage 1: markers of every examined frame, registration, and the incremental map with
    /// its keyframes.
    /// `frame` reads the frames as recorded; with `concurrentFrame` they are read on every
    /// thread. Returns the pinhole camera the markers were seen with and the recorded lens.
    private func buildMap(
        frameCount: Int, frame: (Int) throws -> RGBDFrame?, concurrentFrame: (@Sendable (Int) throws -> RGBDFrame?)?,
        stats: inout ReconstructionStatistics, progress: (ReconstructionProgress) -> Void, isCancelled: () -> Bool
    ) throws -> (MarkerMap, [Keyframe], CameraIntrinsics, [(Int, [MarkerObservation])], RadialDistortion) {
        let detector = MarkerDetector(dictionary: try layout.dictionary())
        let lifter = {
            var lifter = MarkerLifter(layout: layout)
            lifter.depthNoise = options.depthNoise
            return lifter
        }()
        let validIDs = Set(layout.ids)
        var builder = MapBuilder(registration: FrameRegistration(), options: options)
        var colorIntrinsics: CameraIntrinsics?
        var recordedDistortion = RadialDistortion.none
        let examined = Array(stride(from: 0, to: frameCount, by: max(1, options.frameStride)))
        var seen: [(Int, [MarkerObservation])] = []
        let keepsDetections = options.estimatesFocalLength || options.estimatesPrincipalPoint || options.estimatesDistortion
        // Frames are read in batches, their markers found on every thread, and the map grown
        // from them in frame order: the same map whatever the thread count.
        let batchSize = max(1, options.threads) * 2
        // Reading (decoding) alone, apart from detection.
        let clock = ContinuousClock()
        var reading = Duration.zero
        defer { stats.stageSeconds["markersReading"] = reading.seconds }
        for start in stride(from: 0, to: examined.count, by: batchSize) {
            let indices = Array(examined[start..<min(start + batchSize, examined.count)])
            progress(ReconstructionProgress(stage: .markers, done: start, total: examined.count))
            if isCancelled() { throw ReconstructionError.cancelled }
            // Read here one by one, or by the workers themselves when the source allows.
            var read: [RGBDFrame?] = []
            if concurrentFrame == nil {
                let readingStart = clock.now
                read = indices.map { try? frame($0) }
                reading += clock.now - readingStart
            }
            let sequential = read
            let found = SlotBuffer<FrameMarkers?>(count: indices.count, repeating: nil)
            parallelFor(indices.count, threads: options.threads) { k in
                guard let raw = concurrentFrame.map({ try? $0(indices[k]) }) ?? sequential[k] else { return }
                let f = raw.removingLensDistortion()
                var scratch: [SIMD3<Double>] = []
                let detections = detector.detect(in: f.color).filter { validIDs.contains($0.id) }
                found[k] = FrameMarkers(
                    observations: lifter.lift(
                        detections, depth: f.depth, colorIntrinsics: f.colorIntrinsics, depthIntrinsics: f.depthIntrinsics,
                        scratch: &scratch),
                    camera: f.colorIntrinsics, lens: raw.colorIntrinsics.distortion)
            }
            for (k, index) in indices.enumerated() {
                stats.framesExamined += 1
                guard let seenHere = found[k] else { stats.framesRejected += 1; continue }
                colorIntrinsics = seenHere.camera
                recordedDistortion = seenHere.lens
                let observations = seenHere.observations
                if builder.add(observations, frameIndex: index) { stats.framesUsed += 1 } else { stats.framesRejected += 1 }
                if keepsDetections { seen.append((index, observations)) }
            }
        }
        guard !builder.map.corners.isEmpty, let colorK = colorIntrinsics else {
            throw ReconstructionError.noUsableMarkers(framesSeen: stats.framesExamined)
        }
        guard builder.keyframes.count >= 3 else { throw ReconstructionError.tooFewRegisteredFrames(registered: stats.framesUsed, needed: 3) }
        return (builder.map, builder.keyframes, colorK, seen, recordedDistortion)
    }

    /// What one frame gave the marker stage.
    private struct FrameMarkers {
        var observations: [MarkerObservation]
        /// The pinhole camera the markers were found with, and the lens the frame recorded.
        var camera: CameraIntrinsics
        var lens: RadialDistortion
    }

    /// Stage 2 again for a camera corrected by its own estimate: the map and the keyframes are
    /// chosen again from the same detections seen through the corrected camera, so that the
    /// scan ends where one made with a right factory calibration would.
    private func rebuild(
        _ seen: [(Int, [MarkerObservation])], through recorded: CameraIntrinsics, _ keyframes: inout [Keyframe], _ map: inout MarkerMap,
        stats: inout ReconstructionStatistics
    ) throws {
        let correction = stats.appliedCorrection
        var builder = MapBuilder(registration: FrameRegistration(), options: options)
        for (index, observations) in seen {
            _ = builder.add(observations.map { $0.seen(through: recorded, correctedBy: correction) }, frameIndex: index)
        }
        guard builder.keyframes.count >= 3 else {
            throw ReconstructionError.tooFewRegisteredFrames(registered: builder.keyframes.count, needed: 3)
        }
        (map, keyframes) = (builder.map, builder.keyframes)
        // The estimate stands; refining with it held keeps the statistics' camera as they are.
        var held = self
        held.options.estimatesFocalLength = false
        held.options.estimatesPrincipalPoint = false
        held.refine(&keyframes, &map, intrinsics: recorded, stats: &stats)
    }

    /// Stage 2: the robust 3D bundle adjustment, then the joint one on reprojection and depth.
    private func refine(_ keyframes: inout [Keyframe], _ map: inout MarkerMap, intrinsics: CameraIntrinsics, stats: inout ReconstructionStatistics) {
        measureResiduals(keyframes: keyframes, map: map, intrinsics: intrinsics, into: &stats)
        stats.reprojectionRMSPixelsInitial = stats.reprojectionRMSPixels
        BundleAdjustment(iterations: options.bundleIterations).refine(keyframes: &keyframes, map: &map)
        measureResiduals(keyframes: keyframes, map: map, intrinsics: intrinsics, into: &stats)
        stats.reprojectionRMSPixels3D = stats.reprojectionRMSPixels
        if options.jointBundleIterations > 0 {
            let joint = JointBundleAdjustment(iterations: options.jointBundleIterations)
            if options.estimatesFocalLength || options.estimatesPrincipalPoint {
                let outcome = Self.estimateCamera(keyframes, map, intrinsics: intrinsics, options: options)
                if options.estimatesFocalLength {
                    stats.focalScale = outcome.focalScale
                    stats.focalScaleSigma = outcome.focalScaleSigma
                    if abs(outcome.focalScale - 1) > options.focalOverrideThreshold { stats.focalScaleApplied = outcome.focalScale }
                }
                if options.estimatesPrincipalPoint {
                    stats.principalPointShift = [outcome.principalPointShift.x, outcome.principalPointShift.y]
                    stats.principalPointSigma = [outcome.principalPointSigma.x, outcome.principalPointSigma.y]
                }
                if options.estimatesDistortion {
                    stats.distortionK1 = outcome.k1
                    stats.distortionK1Sigma = outcome.k1Sigma
                }
            }
            let corrected = stats.appliedCorrection.applied(to: intrinsics)
            joint.refine(keyframes: &keyframes, map: &map, intrinsics: corrected)
            measureResiduals(keyframes: keyframes, map: map, intrinsics: corrected, into: &stats)
        }
        stats.keyframes = keyframes.count
        stats.markersMapped = map.corners.count
    }

    /// The focal length (and the principal point, when asked) from the markers' centres: where
    /// each marker is seen in the picture and how far away it is. A detector that places corners
    /// a tenth of a pixel inside the printed square (blur, anti-aliasing) shrinks every marker's
    /// picture and would pull the focal length down by as much in per cent; the mean of the four
    /// corners does not move.
    static func estimateCamera(
        _ keyframes: [Keyframe], _ map: MarkerMap, intrinsics: CameraIntrinsics, options: ReconstructionOptions
    ) -> JointBundleAdjustment.Outcome {
        func centre<T: SIMD>(_ values: [T]) -> [T] where T.Scalar == Double {
            let mean = values.reduce(T.zero, +) / T(repeating: Double(max(1, values.count)))
            return Array(repeating: mean, count: values.count)
        }
        var centres = keyframes
        for k in centres.indices {
            centres[k].observations = centres[k].observations.map {
                MarkerObservation(
                    id: $0.id, pixels: centre($0.pixels), corners: centre($0.corners), fromDepth: $0.fromDepth, depthSigma: $0.depthSigma)
            }
        }
        var centreMap = MarkerMap(corners: map.corners.mapValues(centre))
        var estimating = JointBundleAdjustment(iterations: max(options.jointBundleIterations, 12))
        // Each marker now gives four identical residuals: they count as one.
        estimating.pixelSigma *= 2
        estimating.depthSigmaScale = 2
        estimating.estimatesFocal = options.estimatesFocalLength
        estimating.focalPriorSigma = options.focalPriorSigma
        estimating.estimatesPrincipalPoint = options.estimatesPrincipalPoint
        estimating.principalPointPriorSigma = options.principalPointPriorSigma
        estimating.estimatesDistortion = options.estimatesDistortion
        estimating.distortionPriorSigma = options.distortionPriorSigma
        return estimating.refine(keyframes: &centres, map: &centreMap, intrinsics: intrinsics)
    }

    /// The space fused: the cap's sphere widened by `regionScale` and lowered by `regionDrop`
    /// away from the markers (which cover the vault), so the face and ears are in it; where the
    /// markers do not lie on a head-sized sphere (a flat board, whose fitted sphere is huge),
    /// their extent plus a margin, never wider than a head's region, so memory stays bounded.
    func fusionRegion(_ map: MarkerMap) -> HeadRegion? {
        if let sphere = map.fittedSphere(), sphere.radius <= options.maximumHeadRadius {
            let centres = map.ids.compactMap { map.corners[$0] }.map { $0.reduce(SIMD3<Double>.zero, +) / Double($0.count) }
            let towardCap = centres.reduce(SIMD3<Double>.zero) { $0 + ($1 - sphere.centre) } / Double(max(1, centres.count))
            // Markers all round the sphere give no direction to the cap: then the region stays centred.
            let up = length(towardCap) > 0.1 * sphere.radius ? normalized(towardCap) : .zero
            return HeadRegion(centre: sphere.centre - up * (options.regionDrop * sphere.radius), radius: sphere.radius * options.regionScale)
        }
        let corners = map.ids.flatMap { map.corners[$0] ?? [] }
        guard !corners.isEmpty else { return nil }
        let centre = corners.reduce(SIMD3<Double>.zero, +) / Double(corners.count)
        let extent = corners.map { length($0 - centre) }.max() ?? 0
        return HeadRegion(centre: centre, radius: min(extent + 0.02, options.maximumHeadRadius * options.regionScale))
    }

    /// Stage 3: the keyframes' depth fused into a sparse TSDF around the cap's sphere.
    private func fuse(
        _ keyframes: [Keyframe], map: MarkerMap, frame: (Int) throws -> RGBDFrame?,
        concurrentFrame: (@Sendable (Int) throws -> RGBDFrame?)?, stats: inout ReconstructionStatistics,
        progress: (ReconstructionProgress) -> Void, isCancelled: () -> Bool
    ) throws -> (TSDFVolume, HeadRegion) {
        guard let region = fusionRegion(map) else { throw ReconstructionError.noUsableMarkers(framesSeen: stats.framesExamined) }
        let volume = TSDFVolume(voxelSize: options.voxelSize, truncation: options.truncation, colors: options.fuseColor)
        volume.threads = options.threads
        // Integration alone (without reading the frames), to compare with other fusion code.
        let clock = ContinuousClock()
        var integration = Duration.zero
        // With a source several threads may read, a few keyframes at a time are decoded on
        // every thread; they are fused one by one in order either way.
        let batchSize = concurrentFrame == nil ? 1 : max(1, options.threads) * 2
        let correction = stats.appliedCorrection
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
            for (k, keyframe) in batch.enumerated() {
                progress(ReconstructionProgress(stage: .fusion, done: start + k, total: keyframes.count))
                if isCancelled() { throw ReconstructionError.cancelled }
                guard let f = frames[k]?.correcting(correction) else { continue }
                let integrationStart = clock.now
                defer { integration += clock.now - integrationStart }
                volume.integrate(
                    depth: f.depth, intrinsics: f.depthIntrinsics, worldFromCamera: keyframe.mapFromCamera, region: region,
                    color: options.fuseColor ? f.color : nil, colorIntrinsics: f.colorIntrinsics)
            }
        }
        stats.voxelBlocks = volume.blockCount
        stats.volumeBytes = volume.memoryBytes
        stats.stageSeconds["fusionIntegration"] = integration.seconds
        return (volume, region)
    }

    private func measureResiduals(keyframes: [Keyframe], map: MarkerMap, intrinsics: CameraIntrinsics, into stats: inout ReconstructionStatistics) {
        var pixelSquares = 0.0, pixelCount = 0.0, cornerSquares = 0.0, cornerCount = 0.0
        for keyframe in keyframes {
            let cameraFromMap = keyframe.mapFromCamera.inverse
            for o in keyframe.observations {
                guard let mapped = map.corners[o.id] else { continue }
                for c in 0..<4 {
                    if let p = intrinsics.project(cameraFromMap.apply(mapped[c])) {
                        let d = p - o.pixels[c]
                        pixelSquares += (d * d).sum()
                        pixelCount += 1
                    }
                    if o.fromDepth {
                        let e = distance(keyframe.mapFromCamera.apply(o.corners[c]), mapped[c])
                        cornerSquares += e * e
                        cornerCount += 1
                    }
                }
            }
        }
        stats.reprojectionRMSPixels = pixelCount > 0 ? (pixelSquares / pixelCount).squareRoot() : 0
        stats.cornerRMSMillimetres = cornerCount > 0 ? (cornerSquares / cornerCount).squareRoot() * 1000 : 0
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) * 1e-18 }
}

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
    mutating func add(_ observations: [MarkerObservation], frameIndex index: Int) -> Bool {
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
            guard added || length(relative.translation) > options.keyframeTranslation
                || relative.rotation.angle > options.keyframeRotation else { return true }
        }
        keyframes.append(Keyframe(frameIndex: index, mapFromCamera: pose, observations: kept))
        return true
    }
}
