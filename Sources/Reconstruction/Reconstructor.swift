import Foundation
import Geometry
import Imaging
import Markers
import Recording

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
    /// is unreadable and counted as rejected), with `options.camera` when it is given. Frames
    /// whose cameras have lens distortion are resampled to pinhole pictures first (see
    /// `SettledCamera`). Frames are read twice: once for markers, once for the keyframes'
    /// depth, so memory stays bounded by one frame.
    public func reconstruct(
        frameCount: Int, frame: (Int) throws -> RGBDFrame?, progress: (ReconstructionProgress) -> Void = { _ in },
        isCancelled: () -> Bool = { false }
    ) throws -> Reconstruction {
        let camera = options.camera
        return try run(
            frameCount: frameCount, frame: { try frame($0)?.reading(with: camera) }, concurrentFrame: nil, progress: progress,
            isCancelled: isCancelled)
    }

    /// The same, for a source that several threads may read at once (a `ScanReader`): frames
    /// are then decoded on every thread too. The result is the same.
    public func reconstruct(
        frameCount: Int, concurrentFrame: @escaping @Sendable (Int) throws -> RGBDFrame?,
        progress: (ReconstructionProgress) -> Void = { _ in }, isCancelled: () -> Bool = { false }
    ) throws -> Reconstruction {
        let camera = options.camera
        let read: @Sendable (Int) throws -> RGBDFrame? = { try concurrentFrame($0)?.reading(with: camera) }
        return try run(frameCount: frameCount, frame: read, concurrentFrame: read, progress: progress, isCancelled: isCancelled)
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
        var (map, keyframes, recorded, seen, smallDepth) = try timed(.markers, &stats) {
            try buildMap(
                frameCount: frameCount, frame: frame, concurrentFrame: concurrentFrame, stats: &$0, progress: progress,
                isCancelled: isCancelled)
        }
        var camera = SettledCamera(recorded: recorded)
        try timed(.bundleAdjustment, &stats) { stats in
            progress(ReconstructionProgress(stage: .bundleAdjustment, done: 0, total: 1))
            refine(&keyframes, &map, camera: &camera, stats: &stats)
            if camera.correction != .none {
                try rebuild(seen, &keyframes, &map, camera: &camera, stats: &stats)
            }
            // The estimate was made on pictures with the recorded distortion removed.
            camera.k1? += recorded.distortion.k1
            settleScale(&keyframes, &map, camera: &camera)
        }
        stats.keep(camera)
        guard options.fuseSurface else {
            let corners = map.corners.values.joined()
            let centre = corners.reduce(SIMD3<Double>.zero, +) / Double(max(1, corners.count))
            return Reconstruction(
                map: map, keyframes: keyframes, mesh: TriangleMesh(), region: FusionRegion(centre: centre, radius: 0), statistics: stats,
                camera: camera)
        }
        let (volume, region, markersAfterSlide) = try timed(.fusion, &stats) {
            try fuse(
                &keyframes, map: &map, camera: camera, smallDepth: smallDepth, frame: pinholeFrame, concurrentFrame: concurrentFrame,
                stats: &$0, progress: progress, isCancelled: isCancelled)
        }
        let mesh = try timed(.meshing, &stats) { stats in
            progress(ReconstructionProgress(stage: .meshing, done: 0, total: 1))
            var mesh = volume.extractSurface()
            guard !mesh.faces.isEmpty else { throw ReconstructionError.emptySurface }
            stats.vertices = mesh.vertices.count
            stats.triangles = mesh.faces.count
            if let flattening = options.stickerFlattening {
                let cells = (try? layout.dictionary().markerSize).map { $0 + 2 } ?? 6
                let unread = UnreadStickers().locate(keyframes: keyframes, map: map, side: layout.markerSide)
                stats.stickers = flattening.apply(
                    to: &mesh, map: map, unread: unread, headCentre: map.fittedSphere()?.centre ?? region.centre, cellsPerSide: cells,
                    voxelSize: options.voxelSize)
            }
            return mesh
        }
        var reconstruction = Reconstruction(map: map, keyframes: keyframes, mesh: mesh, region: region, statistics: stats, camera: camera)
        reconstruction.markersAfterSlide = markersAfterSlide
        return reconstruction
    }

    /// The stickers' printed size against the map's (`PrintedScale`); where it may set the
    /// scale, the map and the keyframes are scaled to it here and every depth read later is
    /// scaled by the settled camera's correction, so the fusion, the cap's slide and lifted
    /// picks all work at the printed scale.
    func settleScale(_ keyframes: inout [Keyframe], _ map: inout MarkerMap, camera: inout SettledCamera) {
        guard var printed = options.printedScaleRule.estimate(map, printedSide: layout.side(of:)) else { return }
        if !options.scalesByPrintedSize, printed.applied { printed.refused = "the depth's own scale was asked for" }
        camera.printedScale = printed
        let factor = printed.depthScale
        guard factor != 1 else { return }
        map = map.scaled(by: factor)
        keyframes = keyframes.map { $0.scaled(by: factor) }
    }

    /// Runs one stage and keeps its seconds in `stats`.
    func timed<T>(
        _ stage: ReconstructionStage, _ stats: inout ReconstructionStatistics, _ body: (inout ReconstructionStatistics) throws -> T
    ) rethrows -> T {
        let clock = ContinuousClock()
        let start = clock.now
        defer { stats.stageSeconds[stage.rawValue] = (clock.now - start).seconds }
        return try body(&stats)
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) * 1e-18 }
}
