import ArgumentParser
import Evaluation
import Foundation
import Geometry
import Imaging
import Markers
import Processing
import Reconstruction
import Recording

/// `headscan reconstruct`: marker map, camera poses and the fused head mesh from one scan.
struct ReconstructCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reconstruct",
        abstract: "Reconstruct the head: marker map, frame poses and a fused, metric mesh.",
        discussion: """
            The mesh is in metres, in the frame of the first keyframe's camera, unless \
            --align-to names a simulator truth file: then mesh and marker map are moved into \
            the truth's head frame through its marker corners, and the JSON reports the map's \
            error. The mesh format follows the extension of --out: .ply (binary; --ascii for \
            text), .obj or .stl; --colors adds vertex colours (PLY only). --poses-out and \
            --keyframe-depth-out export what was fused, for Benchmarks/reconstruction/open3d_compare.sh.

            Examples:
              headscan reconstruct scan.hscan --out head.ply
              headscan reconstruct scan.hscan --out head.ply --colors
              headscan reconstruct sim.hscan --out head.ply --json --align-to sim.truth.json
              headscan reconstruct board.hscan --map-only --poses-out poses.json --markers-out map.json
              headscan reconstruct plain-cap.hscan --without-markers --out head.ply --poses-out poses.json
              headscan simulate --lost-share 1 --printed-cap --out printed.hscan
              headscan reconstruct printed.hscan --without-markers --out head.ply
              headscan reconstruct printed.hscan --without-markers --out head.ply --landmarks-out landmarks.json
              headscan measure head.ply --landmarks landmarks.json
            """)

    @Argument(help: "The scan file (.hscan).", completion: .file(extensions: ["hscan"]))
    var file: String

    @Option(help: "The mesh to write (.ply, .obj or .stl).")
    var out: String?

    @Flag(help: "Stop after the marker map and the camera poses: no surface (for a flat board; --out is then not needed).")
    var mapOnly = false

    @OptionGroup var outputOptions: OutputOptions

    @Flag(help: "Write PLY as ASCII text.")
    var ascii = false

    @OptionGroup var cap: CapOption

    @Option(help: "Write the marker map as JSON.")
    var markersOut: String?

    @Option(help: "Write the keyframe poses (worldFromCamera, row-major 4x4, output frame) as JSON.")
    var posesOut: String?

    @Option(help: "Folder for the keyframes' raw depth (float32 metres, little-endian, NaN = none), for comparisons.")
    var keyframeDepthOut: String?

    @Option(help: "Simulator truth JSON to align the results to (evaluation).")
    var alignTo: String?

    @Option(help: "Use every n-th frame for the markers.")
    var stride = ReconstructionOptions.headScanStride

    @Option(help: "Threads for marker detection and fusion (default: every core); the result is the same for any number.")
    var threads: Int?

    @Option(help: "Voxel size in millimetres.")
    var voxelMM = 1.0

    @Flag(
        inversion: .prefixedNo,
        help: """
            Look for a cap that slid on the head during the scan (in the depth: the head's surface after the slide lies \
            elsewhere than its markers say) and undo it: the views while it moved are left out, the ones after it placed \
            on the head's surface. --no-find-cap-slide fuses by the markers alone.
            """)
    var findCapSlide = true

    @Flag(help: "Fuse colour and write vertex colours (PLY only).")
    var colors = false

    @Flag(
        help:
            "Leave the stickers as the camera saw them, standing off the head, instead of lowering the surface under them onto the head around them (for comparisons)."
    )
    var keepStickers = false

    @Option(help: "Joint reprojection + depth bundle-adjustment iterations (0 = 3D stage only).")
    var jointIterations = 8

    @Flag(help: "Trust the recorded focal length instead of estimating it in the bundle adjustment.")
    var fixedFocal = false

    @Flag(
        help:
            "Keep the depth's own scale instead of setting the scan's scale by the stickers' printed size (the ratio is still measured and reported)."
    )
    var depthScale = false

    @Option(
        help:
            "A camera file to read the frames with instead of the recorded camera (from `headscan calibrate --out`, or any camera file import-tum reads).",
        completion: .file(extensions: ["json"]))
    var camera: String?

    @Flag(
        help: """
            Reconstruct without the cap's markers: every frame's depth placed on the surface fused so far. A \
            measurement for caps without stickers, not a supported way to scan: the mesh is in the first placed \
            frame's camera frame, in the depth's own scale. A plain cap lets the placement drift; on a printed cap \
            (two colours, as `simulate --printed-cap` draws) the colours are matched too, which holds it.
            """)
    var withoutMarkers = false

    @Option(
        help: """
            With --without-markers on a printed cap: read the head frame from the print, search the nasion, nose \
            tip and tragions on the mesh from it, and write them as the landmarks JSON `headscan measure --landmarks` \
            reads (metres, the mesh's frame).
            """)
    var landmarksOut: String?

    @Option(
        name: .customLong("whole-view"),
        help: """
            With --without-markers: track and fuse everything the first view shows nearer than this many metres, \
            not a head in its middle: for measuring the tracking on public RGB-D recordings of other scenes \
            (Benchmarks/real-rgbd); use a coarser --voxel-mm for a room-sized view. The gates on how far the views' \
            points may lie off the surface widen with the square of the view's median distance past 30 cm (a depth \
            sensor's noise grows so), and the poses are written however well the views agree.
            """)
    var wholeViewMetres: Double?

    func validate() throws {
        if let metres = wholeViewMetres {
            guard withoutMarkers else { throw ValidationError("--whole-view is for a scan without markers (--without-markers)") }
            guard metres.isFinite, (0.2...10).contains(metres) else { throw ValidationError("--whole-view must be in 0.2...10 metres") }
            if landmarksOut != nil { throw ValidationError("--landmarks-out needs a head; drop it or --whole-view") }
        }
        if landmarksOut != nil, !withoutMarkers {
            throw ValidationError(
                "--landmarks-out is for a scan without markers (--without-markers); with the markers, `headscan process` finds the landmarks")
        }
        if withoutMarkers {
            let markerOnly: [(Bool, String)] = [
                (mapOnly, "--map-only"), (alignTo != nil, "--align-to"), (markersOut != nil, "--markers-out"),
                (keyframeDepthOut != nil, "--keyframe-depth-out"), (colors, "--colors"),
            ]
            if let (_, name) = markerOnly.first(where: \.0) { throw ValidationError("\(name) needs the markers; drop it or --without-markers") }
        }
        guard stride >= 1 else { throw ValidationError("--stride must be at least 1") }
        if let threads, !(1...256).contains(threads) { throw ValidationError("--threads must be in 1...256") }
        guard voxelMM >= 0.25, voxelMM <= 10 else { throw ValidationError("--voxel-mm must be in 0.25...10") }
        guard jointIterations >= 0 else { throw ValidationError("--joint-iterations must not be negative") }
        guard let out else {
            guard mapOnly else { throw ValidationError("give the mesh to write with --out FILE.ply (or --map-only for the map and poses alone)") }
            return
        }
        guard !mapOnly else { throw ValidationError("--map-only writes no mesh; drop --out") }
        let ext = fileURL(out).pathExtension.lowercased()
        guard ["ply", "obj", "stl"].contains(ext) else { throw ValidationError("--out must end in .ply, .obj or .stl") }
        guard !colors || ext == "ply" else { throw ValidationError("--colors needs a .ply output") }
    }

    func run() throws {
        let clock = ContinuousClock()
        let started = clock.now
        // Without markers a printed cap's colours are matched: read at full colour resolution.
        let reader = try ScanReader(url: fileURL(file), imageCodec: withoutMarkers ? ImageCodecs.colourExact : ImageCodecs.system)
        if withoutMarkers { return try runWithoutMarkers(reader) }
        var options = ReconstructionOptions()
        options.frameStride = stride
        if let threads { options.threads = threads }
        options.voxelSize = voxelMM / 1000
        options.truncation = 4 * options.voxelSize
        options.fuseColor = colors
        options.jointBundleIterations = jointIterations
        options.estimatesFocalLength = !fixedFocal
        options.fuseSurface = !mapOnly
        options.findsCapSlide = findCapSlide
        options.scalesByPrintedSize = !depthScale
        if keepStickers { options.stickerFlattening = nil }
        options.camera = try camera.map { path in
            try TUMFormat.cameraFile(Array(try Data(contentsOf: fileURL(path))), path: path).color
        }
        var bar = StagedProgressBar("Reconstructing")
        let result = try Reconstructor(layout: try cap.layout(for: reader.header), options: options).reconstruct(
            frameCount: reader.frameCount, concurrentFrame: { try reader.frame(at: $0) },
            progress: { bar.update(stage: $0.stage.label, $0.done + 1, of: $0.total) })
        var outputFromMap = RigidTransform.identity
        var report = Report(statistics: result.statistics)
        if let alignTo {
            let alignment = try TruthFileAlignment(map: result.map, truthFile: fileURL(alignTo))
            outputFromMap = alignment.rigid.transform
            report.mapRMSMillimetres = alignment.similarity.rms * 1000
            report.mapRigidRMSMillimetres = alignment.rigid.rms * 1000
            report.mapScale = alignment.similarity.scale
            report.markersCompared = alignment.markersCompared
        }
        if let out {
            let url = fileURL(out)
            let bytes = ReconstructionExport.meshBytes(result.mesh.transformed(by: outputFromMap), fileExtension: url.pathExtension, ascii: ascii)
            try Data(bytes).write(to: url)
        }
        if let markersOut {
            try ReconstructionExport.markersJSON(result.map.transformed(by: outputFromMap)).write(to: fileURL(markersOut))
        }
        if let posesOut {
            let depth = reader.header.depthIntrinsics
            let recorded = options.camera.map { $0.scaled(toWidth: depth.width, height: depth.height) } ?? depth
            let colorWidth = (options.camera ?? reader.header.colorIntrinsics).width
            let k = ReconstructionExport.fusedDepthCamera(recordedDepth: recorded, colorWidth: colorWidth, settled: result.camera)
            try ReconstructionExport.posesJSON(result, depthCamera: k, options: options, outputFromMap: outputFromMap).write(to: fileURL(posesOut))
        }
        report.seconds = (clock.now - started).seconds
        if let keyframeDepthOut {
            try ReconstructionExport.writeKeyframeDepth(result, from: reader, to: fileURL(keyframeDepthOut))
        }
        if outputOptions.json {
            try printJSON(report)
        } else {
            let s = result.statistics
            print("Frames: \(s.framesUsed) used, \(s.framesRejected) rejected of \(s.framesExamined) examined; \(s.keyframes) keyframes")
            print(
                "Markers mapped: \(s.markersMapped); reprojection RMS \(String(format: "%.3f", s.reprojectionRMSPixels)) px "
                    + "(\(String(format: "%.3f", s.reprojectionRMSPixelsInitial)) px before the bundle adjustment)")
            if let rms = report.mapRMSMillimetres { print(String(format: "Map vs truth: %.3f mm RMS after similarity alignment", rms)) }
            if let out { print("Mesh: \(s.vertices) vertices, \(s.triangles) triangles → \(out)") }
            if let printed = s.printedScale { print("Scale: " + printed.sentence) }
            if let slide = s.capSlide { print("Cap: " + CapFitAdvice.slid(slide) + ".") }
            if let doubt = CapFitAdvice.mayHaveSlidWarning(s.capSlideDoubt) { print("Cap: " + doubt.message) }
            print(
                String(
                    format: "Time: %.1f s (%@)", report.seconds,
                    s.stageSeconds.sorted { $0.key < $1.key }.map { String(format: "%@ %.1f s", $0.key, $0.value) }.joined(separator: ", ")))
        }
    }
}

/// The JSON printed by `headscan reconstruct --json`.
private struct Report: Encodable {
    var framesTotal, framesUsed, framesRejected, keyframes, markersMapped, vertices, triangles, voxelBlocks, volumeBytes: Int
    var reprojectionRMSPixels, reprojectionRMSPixelsInitial, reprojectionRMSPixels3D, cornerRMSMillimetres: Double
    var stageSeconds: [String: Double]
    var seconds = 0.0
    var mapRMSMillimetres: Double?
    var mapRigidRMSMillimetres: Double?
    var mapScale: Double?
    var markersCompared: Int?
    /// The estimated focal length over the recorded one, and its standard deviation.
    var focalScale: Double?
    var focalScaleSigma: Double?
    var focalScaleApplied: Double?
    /// Why an estimate past the threshold was not applied (depth and colour disagree).
    var focalCorrectionRefused: String?
    /// The stickers' mapped size over their printed size (the depth unit's ratio, measured
    /// before the scale was set), its standard deviation, the markers measured, and whether it
    /// set the scan's scale (else why not).
    var printedScale: PrintedScale?
    /// Stickers flattened onto the head and the mean and largest lift removed, millimetres.
    var stickersFlattened: Int?
    var stickerLiftMeanMillimetres: Double?
    var stickerLiftMaxMillimetres: Double?
    /// Stickers left alone because the markers around them lie on a flat surface.
    var stickersLyingFlat: Int?
    /// Stickers whose code no frame read, placed by their outlines (and flattened with the rest).
    var unreadStickersPlaced: Int?
    /// A slide of the cap on the head that the fusion found and undid.
    var capSlide: CapSlide?
    /// A slide the depth showed, too faint to undo.
    var capSlideDoubt: CapSlideDoubt?

    init(statistics s: ReconstructionStatistics) {
        framesTotal = s.framesTotal
        framesUsed = s.framesUsed
        framesRejected = s.framesRejected
        keyframes = s.keyframes
        markersMapped = s.markersMapped
        vertices = s.vertices
        triangles = s.triangles
        voxelBlocks = s.voxelBlocks
        volumeBytes = s.volumeBytes
        reprojectionRMSPixels = s.reprojectionRMSPixels
        reprojectionRMSPixelsInitial = s.reprojectionRMSPixelsInitial
        reprojectionRMSPixels3D = s.reprojectionRMSPixels3D
        cornerRMSMillimetres = s.cornerRMSMillimetres
        stageSeconds = s.stageSeconds
        focalScale = s.focalScale
        focalScaleSigma = s.focalScaleSigma
        focalScaleApplied = s.focalScaleApplied
        focalCorrectionRefused = s.focalCorrectionRefused
        printedScale = s.printedScale
        stickersFlattened = s.stickers?.stickersFlattened
        stickersLyingFlat = s.stickers.map { $0.stickersLyingFlat ?? 0 }
        unreadStickersPlaced = s.stickers.map { $0.unreadStickersPlaced ?? 0 }
        stickerLiftMeanMillimetres = s.stickers.map { $0.meanLift * 1000 }
        stickerLiftMaxMillimetres = s.stickers.map { $0.maxLift * 1000 }
        capSlide = s.capSlide
        capSlideDoubt = s.capSlideDoubt
    }
}
