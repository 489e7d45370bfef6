import ArgumentParser
import Cephalometry
import Foundation
import Processing
import Reconstruction
import Recording
import ScanLibrary

/// `headscan process`: a recorded session to its measurement and report.
struct ProcessCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "process",
        abstract: "Measure a scan session: reconstruct, find or lift the landmarks, measure, write the report.",
        discussion: """
            SESSION_DIR is one session folder of a scan library ([ID]_[date]_Scan) holding \
            scan.hscan and, optionally, annotations.json with picks of the four landmarks. \
            HeadScan finds the landmarks on the reconstructed head itself (the nose, the hollow \
            at the nasion, the notch above each tragus); picks, where given, are used instead, \
            and a pick more than 3 mm from the landmark found is warned of. Each landmark's \
            picks are a list, made in the replay or by hand:
              {"version": 2, "landmarks": {
                 "nasion": [{"frameIndex": 12, "pixel": [318.4, 201.9]}, {"frameIndex": 140, "pixel": [301.0, 188.5]}],
                 "noseTip": [{"frameIndex": 12, "pixel": [322.0, 260.3]}],
                 "leftTragion": [{"point": [0.061, -0.012, 0.004]}],
                 "rightTragion": [...]}}
            frameIndex counts the scan's frames from 0; pixel is in the colour image, pixel \
            centres at integers; point is in metres in the frame of head.ply. A pick on a frame \
            is lifted into 3D through that frame's depth and camera pose (where the depth has a \
            hole, the pixel's ray meets the mesh). Several picks of one landmark are combined \
            robustly; their spread and each pick's distance from the surface are reported. \
            Version 1 annotations (one pick per landmark) read as well.

            The head is reconstructed unless head.ply and reconstruction.json were made from \
            this very scan.hscan (--reconstruct forces it). Written into the session: \
            head.ply, reconstruction.json, measurement.json, report.html and report.pdf. \
            Calliper values come from patient.json; earlier measured visits of the same \
            patient are drawn as a trend in the report.

            Before measuring, the cap's lower edge is checked all around the head: where hair \
            lifts the cap off the skin, the scan shows the cap, not the skull, and the session \
            is not measured (the message says how far, where, and what to do); \
            --measure-over-hair measures it anyway, with a warning.

            --without-markers measures a scan of a printed stocking cap without stickers: \
            every examined frame's depth (and the print's colours) is placed on the surface \
            fused so far, the head frame is read from the print, and the landmarks are searched \
            from it; the report says the scan was placed without stickers, and its sizes carry \
            the depth sensor's own scale. A scan whose views do not lie alike on the finished \
            surface, or whose print does not match the cap's, is not measured; on a plain cap \
            (no print) the landmarks must be picked. A scan the app recorded with its guide \
            scanning without stickers (its setting withoutMarkers) is measured this way \
            without the flag.

            Without stickers nothing in the scan corrects a phone's focal length that is off \
            (stickers of a printed size do), and a few per cent off changes the head's shape, \
            not only its size: --camera reads the frames with the camera a printed board gave \
            (headscan calibrate --out), and the report says whether the camera was checked. \
            A scan placed by its stickers does not use it: the stickers' printed size corrects \
            the camera.

            Exit status: 0 when measured, 2 when landmarks are neither picked nor found on the \
            head (the message names them and says why), 3 when the cap stood off the skin, 1 \
            for other problems.

            Examples:
              headscan process Scans/12_2026-05-01T10-30-00_Scan
              headscan process Scans/12_2026-05-01T10-30-00_Scan --json
              headscan process Scans/12_2026-05-01T10-30-00_Scan --measure-over-hair
              headscan process Scans/14_2026-05-02T09-00-00_Scan --without-markers
              headscan calibrate board.hscan --out camera.json
              headscan process Scans/14_2026-05-02T09-00-00_Scan --camera camera.json
            """)

    @Argument(help: "The session folder.", completion: .directory)
    var sessionDir: String

    @Flag(help: "Reconstruct even when head.ply is current.")
    var reconstruct = false

    @Option(help: "Use every n-th frame for the markers.")
    var stride = ReconstructionOptions.headScanStride

    @Option(help: "Lowest slice height above the reference plane, millimetres (default 20: above the ears).")
    var lowestSliceMM: Double?

    @Flag(
        help: ArgumentHelp(
            "Measure even when the cap stood off the skin (hair under it), with a warning.",
            discussion: "The values are then the cap's, not the skull's: up to 3 points of CVAI off with 3 mm of hair."))
    var measureOverHair = false

    @Flag(help: "Reconstruct a scan of a printed cap without stickers: frames placed by the head's surface and the print.")
    var withoutMarkers = false

    @Option(
        help: ArgumentHelp(
            "A camera file to read the frames with instead of the phone's recorded camera.",
            discussion: "From `headscan calibrate --out` on a board recorded with the same phone.", valueName: "file"),
        completion: .file(extensions: ["json"]))
    var camera: String?

    @OptionGroup var outputOptions: OutputOptions

    func validate() throws {
        guard stride >= 1 else { throw ValidationError("--stride must be at least 1") }
        if let lowestSliceMM, !(0...80).contains(lowestSliceMM) { throw ValidationError("--lowest-slice-mm must be in 0...80") }
    }

    func run() throws {
        let folder = try SessionFolder(sessionDir)
        var options = ProcessingOptions()
        options.forceReconstruction = reconstruct
        options.measuresOverLiftedCap = measureOverHair
        options.withoutMarkers = withoutMarkers
        options.reconstruction.frameStride = stride
        if let camera {
            options.reconstruction.camera = try TUMFormat.cameraFile(Array(try Data(contentsOf: fileURL(camera))), path: camera).color
        }
        if let lowestSliceMM { options.measurement.lowestHeight = lowestSliceMM / 1000 }
        if let truth = try folder.truthReference() {
            options.reportReference = truth.reference
            options.reportNotes = [truth.note]
        }
        var bar = StagedProgressBar("Processing")
        let result: ProcessingResult
        do {
            result = try SessionProcessor(library: folder.library, options: options)
                .process(folder.session, progress: { bar.update(stage: $0.stage.label, $0.done + 1, of: $0.total) })
        } catch ProcessingError.missingPicks(let missing) {
            writeError("error: \(ProcessingError.missingPicks(missing).description)\n")
            throw ExitCode(2)
        } catch let error as ProcessingError {
            switch error {
            case .landmarksNotFound:
                writeError("error: \(error.description)\n")
                throw ExitCode(2)
            case .capLifted:
                writeError("error: \(error.description)\n")
                throw ExitCode(3)
            default: throw error
            }
        }
        if camera != nil, result.withoutMarkers == nil {
            writeError("note: --camera was not used: this scan was placed by its stickers, whose printed size corrects the camera\n")
        }
        let output = ProcessOutput(result)
        try outputOptions.emit(output)
    }
}

/// What `headscan process` prints.
struct ProcessOutput: TextReport {
    struct LandmarkOutput: Encodable {
        var point: [Double]
        var picks: Int
        var used: Int
        var spreadMM: Double
        var residualsMM: [Double?]
        var unusable: [String]
    }

    var cvai, cvaMM, ci, circumferenceMM, diagonalAMM, diagonalBMM, lengthMM, widthMM, sliceHeightMM: Double
    var severityLevel: Int
    var flattenedSide: String
    var landmarksSource: LandmarkSource
    var landmarks: [Landmark: LandmarkOutput]
    /// The landmarks found on the head: point, confidence (0–1) and the frames that show them best.
    var foundLandmarks: AutomaticLandmarks?
    var reconstructed: Bool
    var calliper: CalliperComparison?
    var shape: ShapeMeasures?
    /// The slice measures under every convention clinics use.
    var conventions: [ConventionMeasures]?
    /// The 95 % intervals of CVAI, CVA, CI and circumference.
    var intervals: MeasurementIntervals?
    var assessment: ShapeAssessment?
    var asymmetry: AsymmetrySummary?
    /// How far the cap stood off the skin at its lower edge (hair under it), mm; absent when
    /// too little of the edge was seen to tell.
    var capStandOffMM: Double?
    /// A scan reconstructed without markers: its frames placed and how the head frame was read.
    var placedWithoutMarkers: PlacedWithoutMarkers?
    var warnings: [String]
    var report: String
    var pdf: String

    init(_ r: ProcessingResult) {
        let m = r.measurement
        cvai = m.cvai; cvaMM = m.cvaMM; ci = m.ci; circumferenceMM = m.circumferenceMM
        diagonalAMM = m.diagonalAMM; diagonalBMM = m.diagonalBMM; lengthMM = m.lengthMM; widthMM = m.widthMM
        sliceHeightMM = m.sliceHeightMM
        severityLevel = m.severityLevel.rawValue
        flattenedSide = m.flattenedSide.rawValue
        landmarksSource = r.landmarksSource
        landmarks = Dictionary(
            uniqueKeysWithValues: r.estimates.map { landmark, e in
                (
                    landmark,
                    LandmarkOutput(
                        point: [e.point.x, e.point.y, e.point.z], picks: e.picks, used: e.used.count,
                        spreadMM: e.spreadMM, residualsMM: e.residualsMM, unusable: e.unusable)
                )
            })
        foundLandmarks = r.automatic
        reconstructed = r.reconstructed
        calliper = r.calliper
        shape = m.shape
        conventions = m.conventions
        intervals = m.intervals
        assessment = r.assessment
        asymmetry = r.asymmetry
        capStandOffMM = r.capStandOff.map { $0.largest * 1000 }
        placedWithoutMarkers = r.withoutMarkers
        warnings = m.warnings.map(\.message)
        report = r.html.path
        pdf = r.pdf.path
    }

    var text: String {
        func f(_ v: Double) -> String { String(format: "%.2f", v) }
        var lines = [
            "CVAI            \(f(cvai)) %" + (intervals.map { " (95 % interval \(f($0.cvai.low))–\(f($0.cvai.high)))" } ?? "")
                + "   (CHOA \(severityLevel))",
            "CVA             \(f(cvaMM)) mm, flattened side: \(flattenedSide)",
            "diagonal A / B  \(f(diagonalAMM)) / \(f(diagonalBMM)) mm",
            "cranial index   \(f(ci))   (length \(f(lengthMM)) mm, width \(f(widthMM)) mm)",
            "circumference   \(f(circumferenceMM)) mm",
            "landmarks       from \(landmarksSource.rawValue)" + (reconstructed ? "; head reconstructed now" : "; head.ply was current"),
        ]
        for landmark in Landmark.allCases {
            guard let l = landmarks[landmark] else { continue }
            let name = landmark.rawValue
            let residuals = l.residualsMM.map { $0.map { f($0) } ?? "–" }.joined(separator: ", ")
            lines.append(
                "  \(name.padding(toLength: 13, withPad: " ", startingAt: 0)) \(l.used)/\(l.picks) picks, spread \(f(l.spreadMM)) mm, off the surface \(residuals) mm"
            )
            lines += l.unusable.map { "    set aside: \($0)" }
        }
        for landmark in Landmark.allCases where landmarks[landmark] == nil {
            guard let d = foundLandmarks?[landmark] else { continue }
            let name = landmark.rawValue
            lines.append(
                "  \(name.padding(toLength: 13, withPad: " ", startingAt: 0)) found on the head, confidence \(f(d.confidence)): \(d.evidence)")
        }
        if let c = calliper {
            lines.append("calliper        CVAI \(f(c.calliperCVAI)) % (3D − calliper \(f(c.cvaiDifference)))")
        }
        lines += ConventionLines.lines(conventions)
        lines += ShapeLines.lines(shape: shape, assessment: assessment, asymmetry: asymmetry)
        if let capStandOffMM {
            let doubt = f(CapStandOff.doubtThreshold * 1000), hair = f(CapStandOff.hairThreshold * 1000)
            lines.append(
                "cap edge        stands \(f(capStandOffMM)) mm off the skin at most (over \(doubt) mm: hair under it?; over \(hair) mm: not measured)"
            )
        }
        if let p = placedWithoutMarkers {
            lines.append(
                "placed          without stickers: \(p.framesPlaced) of \(p.framesExamined) frames"
                    + (p.printAgreement.map { "; head frame from the print (\(Int(($0 * 100).rounded())) % of its colours agree)" }
                        ?? (p.printSeen ? "; too little print to read the head frame" : "; no print seen"))
                    + (p.checkedCamera == nil ? "; the phone's factory camera" : "; the camera checked with a board"))
        }
        lines += warnings.map { "warning: \($0)" }
        lines += ["Report: \(report)", "        \(pdf)"]
        return lines.joined(separator: "\n")
    }
}
