import Cephalometry
import Foundation
import Geometry
import Imaging
import Markers
import Reconstruction
import Recording
import Report
import ScanLibrary

// CryptoKit on Apple platforms (no package to build for the app), swift-crypto elsewhere:
// the same API.
#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif

/// The stages of processing a session, in order: the reconstruction's, then the rest.
public enum ProcessingStage: String, Sendable, CaseIterable {
    case markers, bundleAdjustment, fusion, meshing, landmarks, measuring, report

    init(_ stage: ReconstructionStage) { self.init(rawValue: stage.rawValue)! }

    /// The stage in words, for progress bars.
    public var label: String {
        switch self {
        case .markers, .bundleAdjustment, .fusion, .meshing: ReconstructionStage(rawValue: rawValue)!.label
        case .landmarks: "landmarks"
        case .measuring: "measuring"
        case .report: "report"
        }
    }
}

/// What processing is doing, for progress bars: the stage and how far it is.
public struct ProcessingProgress: Sendable, Equatable {
    public var stage: ProcessingStage
    public var done: Int
    public var total: Int

    public init(stage: ProcessingStage, done: Int, total: Int) {
        self.stage = stage
        self.done = done
        self.total = total
    }
}

/// Settings of processing.
public struct ProcessingOptions: Sendable {
    /// The reconstruction's settings; every third frame for the markers by default: as
    /// accurate as every second or every frame (the frames between add no keyframe a head
    /// scan needs), and a third or two thirds faster.
    public var reconstruction: ReconstructionOptions = {
        var options = ReconstructionOptions()
        options.frameStride = ReconstructionOptions.headScanStride
        return options
    }()
    /// Reconstruct without markers: the frames placed on the head's surface and the cap's
    /// print (a printed stocking cap), the head frame read from the print.
    public var withoutMarkers = false
    /// Reconstruct even when `head.ply` is current.
    public var forceReconstruction = false
    /// Measure even when the cap stood off the skin (hair under it), with a warning, instead
    /// of refusing: the values are then the cap's, not the skull's.
    public var measuresOverLiftedCap = false
    /// Where the slice search starts and other measuring settings.
    public var measurement = MeasurementOptions()
    /// A column beside the 3D values in the report (a simulation's truth), and extra notes.
    public var reportReference: ReferenceValues?
    public var reportNotes: [String] = []
    /// The time written into `measurement.json`, `reconstruction.json` and the report (the
    /// research service gives the start of the session's week, so nothing names the visit's day).
    public var clock: @Sendable () -> Date = { Date() }

    public init() {}
}

/// What processing a session gave.
public struct ProcessingResult: Sendable {
    public var measurement: HeadMeasurement
    public var calliper: CalliperComparison?
    /// The landmarks measured with, in the mesh's frame.
    public var landmarks: HeadLandmarks
    /// Per landmark, its picks' combination.
    public var estimates: [Landmark: LandmarkEstimate]
    /// Where the landmarks came from.
    public var landmarksSource: LandmarkSource
    /// The landmarks found on the mesh, when they could be.
    public var automatic: AutomaticLandmarks?
    /// Whether the head was reconstructed now (false: `head.ply` was current).
    public var reconstructed: Bool
    public var statistics: ReconstructionStatistics
    public var html: URL
    public var pdf: URL
    /// Deformity type and severity under the library's report thresholds.
    public var assessment: ShapeAssessment?
    /// The asymmetry map's figures, when it was drawn.
    public var asymmetry: AsymmetrySummary?
    /// How far the cap stood off the skin at its lower edge, when it could be told.
    public var capStandOff: CapStandOff?
    /// How a scan without markers was placed; nil for a scan placed by its stickers.
    public var withoutMarkers: PlacedWithoutMarkers?

    public init(
        measurement: HeadMeasurement, calliper: CalliperComparison?, landmarks: HeadLandmarks, estimates: [Landmark: LandmarkEstimate],
        landmarksSource: LandmarkSource, reconstructed: Bool, statistics: ReconstructionStatistics, html: URL, pdf: URL
    ) {
        self.measurement = measurement
        self.calliper = calliper
        self.landmarks = landmarks
        self.estimates = estimates
        self.landmarksSource = landmarksSource
        self.reconstructed = reconstructed
        self.statistics = statistics
        self.html = html
        self.pdf = pdf
    }
}

/// Turns a recorded session into a measurement: reconstruct (unless `head.ply` is current),
/// lift the picked landmarks, measure, and write `head.ply`, `reconstruction.json`,
/// `measurement.json` and the report. The command line's `process` and the app's Results
/// screen both call this.
public struct SessionProcessor: Sendable {
    public let library: ScanLibrary
    public var options: ProcessingOptions

    public init(library: ScanLibrary, options: ProcessingOptions = .init()) {
        self.library = library
        self.options = options
    }

    /// Processes `session`; `isCancelled` is asked between frames, and a cancelled run leaves
    /// the session as it was.
    public func process(
        _ session: ScanSession, progress: (ProcessingProgress) -> Void = { _ in }, isCancelled: () -> Bool = { false }
    ) throws -> ProcessingResult {
        let annotations = try library.annotations(in: session) ?? AnnotationsRecord()
        // Without markers the frames are placed by their colour too, read at full resolution. A
        // scan the app guided without markers is processed so whatever the options say.
        var reader = try ScanReader(url: session.scanURL, imageCodec: options.withoutMarkers ? ImageCodecs.colourExact : ImageCodecs.system)
        let placesWithoutMarkers = options.withoutMarkers || reader.header.guidedWithoutMarkers
        if placesWithoutMarkers, !options.withoutMarkers { reader = try ScanReader(url: session.scanURL, imageCodec: ImageCodecs.colourExact) }
        let layout = try reader.header.layout()
        let (record, mesh, reconstructed) =
            placesWithoutMarkers
            ? try reconstructionWithoutMarkers(session, reader: reader, layout: layout, progress: progress, isCancelled: isCancelled)
            : try reconstruction(session, reader: reader, layout: layout, progress: progress, isCancelled: isCancelled)
        if isCancelled() { throw ProcessingError.cancelled }

        progress(ProcessingProgress(stage: .landmarks, done: 0, total: 1))
        // Picks are lifted through the frames as the reconstruction read them.
        let checked = record.withoutMarkers?.checkedCamera
        let camera = record.statistics.camera(recorded: checked ?? reader.header.colorIntrinsics)
        let automatic = Self.automaticLandmarks(record, mesh: mesh, layout: layout, views: record.keyframeViews(camera: camera))
        var lifter = PickLifter(
            reader: reader, locator: try record.locator(layout: layout), mesh: mesh,
            camera: camera, frameCamera: checked)
        let estimates = try lifter.estimates(annotations) { progress(ProcessingProgress(stage: .landmarks, done: $0, total: $1)) }
        let seen = Set(record.markers.keys.compactMap { Int($0) })
        let withoutMarkers = record.withoutMarkers != nil
        // A cap that rode up is the likeliest reason the ears or the face were not found.
        let chosen = try LandmarkChoice(
            picked: estimates, automatic: automatic, liftedFromFrames: annotations.needsLifting,
            refusalAdvice: withoutMarkers ? nil : CapFitAdvice.ridesUp(seen: seen, layout: layout))
        let landmarks = chosen.landmarks
        // The cap's stand-off is read at its stickers' lowest ring; a cap without them shows none.
        let standOff = withoutMarkers ? nil : CapStandOff.estimate(mesh: mesh, landmarks: landmarks, stickers: Array(record.markers.values))
        if let standOff, standOff.liftedByHair, !options.measuresOverLiftedCap {
            throw ProcessingError.capLifted(standOff)
        }

        progress(ProcessingProgress(stage: .measuring, done: 0, total: 1))
        var slice = try Cephalometer.measure(mesh, landmarks: landmarks, options: options.measurement)
        slice.measurement.warnings += chosen.warnings
        slice.measurement.warnings += [standOff.flatMap(CapFitAdvice.liftedWarning), standOff.flatMap(CapFitAdvice.mayBeLiftedWarning)]
            .compactMap { $0 }
        if let placed = record.withoutMarkers {
            if let refusal = Self.refusalWithoutMarkers(slice.measurement.warnings) { throw refusal }
            slice.measurement.warnings.append(CapFitAdvice.withoutStickersWarning(placed))
        } else {
            slice.measurement.warnings += capWarnings(record, seen: seen, layout: layout, reader: reader)
        }
        let uncertainty = UncertaintyModel.uncertainty(
            estimates: estimates, found: try? automatic.get(), statistics: record.statistics, scaledByDepth: withoutMarkers)
        if let intervals = Cephalometer.intervals(slice, mesh: mesh, landmarks: landmarks, uncertainty: uncertainty, options: options.measurement) {
            slice.measurement.intervals = intervals
            let boundaries = [3.5, 6.25, 8.75, 11.0]
            if let straddles = UncertaintyModel.straddleWarning(cvai: slice.measurement.cvai, interval: intervals.cvai, boundaries: boundaries) {
                slice.measurement.warnings.append(straddles)
            }
        }
        let calliper = try library.patient(in: session).map { try CalliperComparison(slice.measurement, calliper: $0.calliper) }
        let source = chosen.source
        if isCancelled() { throw ProcessingError.cancelled }
        try library.saveMeasurement(
            MeasurementRecord(
                measurement: slice.measurement, calliper: calliper, landmarks: landmarks, measuredAt: options.clock(), landmarksSource: source,
                landmarkEstimates: estimates,
                automaticLandmarks: try? automatic.get(), options: options.measurement), in: session)
        // The record as saved (its dates as the file keeps them), with what was just measured:
        // the report measures nothing again.
        guard let saved = try library.measurement(in: session) else { throw ProcessingReportError.notMeasured(session.name.rawValue) }

        progress(ProcessingProgress(stage: .report, done: 0, total: 1))
        let written = try ClinicalReportWriter(library: library, session: session)
            .write(
                MeasuredSession(record: saved, mesh: mesh, slice: slice), reference: options.reportReference, notes: options.reportNotes,
                now: options.clock())
        var result = ProcessingResult(
            measurement: written.slice.measurement, calliper: calliper, landmarks: landmarks, estimates: estimates,
            landmarksSource: source, reconstructed: reconstructed, statistics: record.statistics, html: written.html, pdf: written.pdf)
        result.assessment = written.assessment
        result.asymmetry = written.asymmetry
        result.automatic = try? automatic.get()
        result.capStandOff = standOff
        result.withoutMarkers = record.withoutMarkers
        return result
    }

    /// The landmarks found on the mesh: the head's orientation from the mapped stickers, or
    /// without markers from the cap's print.
    static func automaticLandmarks(
        _ record: ReconstructionRecord, mesh: TriangleMesh, layout: CapLayout, views: [ReconstructedView]
    ) -> Result<AutomaticLandmarks, CephalometryError> {
        guard let placed = record.withoutMarkers else { return AutomaticLandmarking.find(mesh: mesh, map: record.map, layout: layout, views: views) }
        guard let orientation = placed.orientation else {
            return .failure(
                .unusableMesh(
                    placed.printSeen
                        ? "too little of the head showed the cap's print to tell how the head lies; pick the landmarks, or scan the whole cap in even light"
                        : "the cap showed neither stickers nor a print, so nothing tells how the head lies; pick the landmarks"))
        }
        return AutomaticLandmarking.find(mesh: mesh, orientation: orientation, views: views)
    }

    /// What the scan tells about the cap: stickers missing, a cap that rode up or moved.
    private func capWarnings(
        _ record: ReconstructionRecord, seen: Set<Int>, layout: CapLayout, reader: ScanReader
    )
        -> [MeasurementWarning]
    {
        [
            CapCoverage.warning(
                seen: record.markers.count, of: layout.markers.count, unread: record.statistics.stickers?.unreadStickersPlaced ?? 0),
            CapFitAdvice.ridesUpWarning(seen: seen, layout: layout), CapFitAdvice.slidWarning(record.statistics.capSlide),
            CapFitAdvice.mayHaveSlidWarning(record.statistics.capSlideDoubt),
            CapFitAdvice.unplacedWarning(record.statistics),
        ].compactMap { $0 }
    }

    /// The stored reconstruction when it was made from this very recording, else a new one.
    private func reconstruction(
        _ session: ScanSession, reader: ScanReader, layout: CapLayout, progress: (ProcessingProgress) -> Void, isCancelled: () -> Bool
    ) throws -> (ReconstructionRecord, TriangleMesh, Bool) {
        var fingerprint = try Self.fingerprint(session.scanURL)
        if let (stored, mesh) = try stored(session, layout: layout, withoutMarkers: false, fingerprint: &fingerprint) { return (stored, mesh, false) }
        let result: Reconstruction
        // The stickers' printed size corrects the camera, and the record keeps only that
        // correction: the frames are read as recorded (a checked camera is for scans without).
        var markerOptions = options.reconstruction
        markerOptions.camera = nil
        do {
            result = try Reconstructor(layout: layout, options: markerOptions).reconstruct(
                frameCount: reader.frameCount, concurrentFrame: { try reader.frame(at: $0) },
                progress: { progress(ProcessingProgress(stage: ProcessingStage($0.stage), done: $0.done, total: $0.total)) }, isCancelled: isCancelled
            )
        } catch ReconstructionError.cancelled {
            throw ProcessingError.cancelled
        }
        let record = ReconstructionRecord(result, scan: fingerprint, capLayout: layout.name, at: options.clock())
        let comment = "HeadScan reconstruction, metres, frame of the scan's first keyframe"
        return (record, try save(record, mesh: result.mesh, comment: comment, in: session), true)
    }

    /// The stored reconstruction and mesh when they were made in this mode from this very
    /// recording, and without markers read with the options' camera (`fingerprint` then keeps
    /// the content hash computed to tell); nil otherwise, with the hash computed for the
    /// record to be made.
    func stored(
        _ session: ScanSession, layout: CapLayout, withoutMarkers: Bool, fingerprint: inout ReconstructionRecord.ScanFingerprint
    ) throws -> (ReconstructionRecord, TriangleMesh)? {
        if !options.forceReconstruction, let stored = try? library.document(ReconstructionRecord.self, in: session),
            stored.capLayout == layout.name, (stored.withoutMarkers != nil) == withoutMarkers,
            // Without markers, read with the same camera (a checked one, or the recorded one).
            stored.withoutMarkers?.checkedCamera == (withoutMarkers ? options.reconstruction.camera : nil),
            try isSameScan(stored.scan, &fingerprint, url: session.scanURL),
            let data = try? Data(contentsOf: session.meshURL), let mesh = try? PLY.decode([UInt8](data))
        {
            return (stored, mesh)
        }
        if fingerprint.sha256 == nil { fingerprint.sha256 = try Self.contentHash(session.scanURL) }
        return nil
    }

    /// Without markers a measurement that lies on a hole of the scan is not measured: with
    /// stickers the hole is a part of the head not seen, and its length interpolated over it is
    /// warned of; without them the frames around it may have been placed astray too (an ear
    /// never placed left CVAI 1.48 off on a restless scan), and nothing tells which.
    public static func refusalWithoutMarkers(_ warnings: [MeasurementWarning]) -> ProcessingError? {
        warnings.first { $0.kind == .sliceLeavesSurface }.map { .regionNotScanned($0.message) }
    }

    /// Saves `record` and `mesh` into the session, and gives the mesh as stored: measured as
    /// stored (PLY keeps 32-bit floats), `headscan measure` of the saved mesh gives the same
    /// figures to the last digit.
    func save(_ record: ReconstructionRecord, mesh: TriangleMesh, comment: String, in session: ScanSession) throws -> TriangleMesh {
        let ply = PLY.encode(mesh, comment: comment)
        try library.saveMesh(plyData: Data(ply), in: session)
        try library.save(record, in: session)
        return try PLY.decode(ply)
    }

    /// Whether `stored` was made from the file `current` describes: the same size and time, or
    /// (a copied or uploaded session, whose time changed) the same content; the hash computed
    /// for that is kept in `current`.
    func isSameScan(
        _ stored: ReconstructionRecord.ScanFingerprint, _ current: inout ReconstructionRecord.ScanFingerprint, url: URL
    ) throws -> Bool {
        if stored.matches(current) { return true }
        guard stored.bytes == current.bytes, let hash = stored.sha256 else { return false }
        current.sha256 = try Self.contentHash(url)
        return current.sha256 == hash
    }

    /// SHA-256 of a file, read in 4 MiB pieces, lowercase hex.
    static func contentHash(_ url: URL) throws -> String {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var hasher = SHA256()
        while let piece = try handle.read(upToCount: 4 << 20), !piece.isEmpty { hasher.update(data: piece) }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }

    static func fingerprint(_ url: URL) throws -> ReconstructionRecord.ScanFingerprint {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return ReconstructionRecord.ScanFingerprint(
            bytes: (attributes[.size] as? NSNumber)?.intValue ?? 0,
            modified: ((attributes[.modificationDate] as? Date) ?? .distantPast).timeIntervalSince1970)
    }
}
