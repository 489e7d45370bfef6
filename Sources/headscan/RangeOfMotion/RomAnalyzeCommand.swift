import ArgumentParser
import Foundation
import KneeReport
import RangeOfMotion

/// `headscan rom analyze`: the knee's range of motion from a poses file.
struct RomAnalyzeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Measure a knee's extension and flexion from the poses of a video.",
        discussion: """
            POSES is a JSON file of the frames already sampled from the video (3 per second):
              {"width": 1080, "height": 1920, "frames": [
                {"t": 0.0, "keypoints": {
                  "left_hip": [512.0, 880.5, 0.92], "left_knee": [530.1, 1130.2, 0.88],
                  "left_ankle": [520.4, 1370.8, 0.90], "right_hip": [505.2, 884.0, 0.71],
                  …}},
                {"t": 0.333, "keypoints": {…}}]}
            Keypoints use COCO's names (nose, left_eye … left_hip, right_hip, left_knee, \
            right_knee, left_ankle, right_ankle) as [x, y, confidence] in pixels, x right and y \
            down; a keypoint the pose model did not find is left out. Apple Vision, MediaPipe \
            and OpenPose output all map to these names.

            Each frame passes quality checks (see the settings below); if fewer than 55 % pass, \
            the video is refused with the reasons and the exit status is 2. The knee angle is \
            the interior hip-knee-ankle angle in the leg's plane, as the picture shows it from \
            the side and with a slanted camera undone (see correctSlant below): 180 = straight, \
            above 180 when the knee bends backwards (hyperextension); it is smoothed over \
            neighbouring frames. The smallest and largest angle are read from a fit of the \
            angle over time around each end (a parabola with its top cut flat), right whether \
            the patient holds the end or turns straight back from it. flexion = \
            180 - smallest angle; extension = largest angle - 180 (negative: the knee does not \
            straighten fully). The neutral-zero form reads extension-0-flexion, e.g. 5-0-140, \
            or 0-10-120 for a knee 10° short of straight. An end the leg left the picture at \
            was not seen: the knee went at least that far, and the form marks it (0-0-≥118).

            --json prints minAngle, maxAngle, minAngleUncertainty and maxAngleUncertainty (the \
            fitted ends' standard errors from the frames' scatter; null when not fitted), minFrame, \
            maxFrame (frame indices from 0), minTime, maxTime, flexion, extension, flexionAtLeast and extensionAtLeast (true when that \
            end was not seen, so the figure is a bound), neutralZero, framesPassed, framesTotal, passedShare, \
            accepted, rejections (count per reason), warnings, slantDegrees and slantUncertainty \
            (how far off the leg's side the camera looked, undone before the angles were read; \
            null when not found) and frames [{t, angle, smoothedAngle, passed, reason}].

            \(RomInput.settingsHelp)

            Examples:
              headscan rom simulate --out poses.json
              headscan rom analyze poses.json --side left
              headscan rom analyze poses.json --side left --json --report out
              headscan rom analyze poses.json --patient 12 --root ROM
            """)

    @Argument(help: "The poses file (JSON, see above).")
    var poses: String

    @Option(help: "The knee measured (default: the side the pose model saw best).")
    var side: BodySide?

    @Option(help: "Settings: a JSON file or inline JSON (see above for the keys).")
    var settings: String?

    @Option(help: "Read at most this many frames per second from a densely sampled file.")
    var fps: Double?

    @OptionGroup var outputOptions: OutputOptions

    @Option(help: "Write knee-report.html and knee-report.pdf into this folder.")
    var report: String?

    @Option(help: "Store the measurement for this patient (with --root).")
    var patient: String?

    @Option(help: "The folder of stored measurements, one subfolder per patient.")
    var root: String?

    func validate() throws {
        if patient != nil, root == nil { throw ValidationError("--patient needs --root, the folder where measurements are kept") }
        if let fps, !(fps > 0) { throw ValidationError("--fps must be above 0") }
        if let patient { try RangeOfMotionStore.validate(patientID: patient) }
    }

    func run() throws {
        var sequence = try PoseSequence.decode(json: RomInput.read(poses, what: "poses"))
        if let fps { sequence = sequence.sampled(framesPerSecond: fps) }
        let chosenSide = side ?? sequence.likelyFilmedSide
        let analysis = try RangeOfMotionAnalyzer(settings: RomInput.settings(settings)).analyze(sequence, side: chosenSide)
        var output = RangeOfMotionSummary(analysis, sideGuessed: side == nil)
        let date = Date()
        let source = fileURL(poses).lastPathComponent
        var earlier: [RangeOfMotionRecord] = []
        if let patient, let root {
            let store = RangeOfMotionStore(root: fileURL(root))
            earlier = try store.history(patientID: patient).records.map(\.record)
            output.stored = try store.save(analysis, patientID: patient, date: date, source: source).url.path
        }
        if let report {
            let inputs = KneeReportInputs(analysis: analysis, patientID: patient, date: date, source: source, earlier: earlier)
            output.report = try KneeReportFiles.write(KneeReport(inputs), to: fileURL(report))
        }
        try outputOptions.emit(output)
        if !analysis.accepted { throw ExitCode(2) }
    }
}

/// Writes a knee report's two files.
enum KneeReportFiles {
    static let htmlName = "knee-report.html", pdfName = "knee-report.pdf"

    /// The paths written.
    static func write(_ report: KneeReport, to folder: URL) throws -> [String] {
        let html = folder.appendingPathComponent(htmlName), pdf = folder.appendingPathComponent(pdfName)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(KneeReportHTML.render(report).utf8).write(to: html)
            try Data(KneeReportPDF.render(report)).write(to: pdf)
        } catch {
            throw ToolError("--report: cannot write into \(folder.path): \(error.localizedDescription)")
        }
        return [html.path, pdf.path]
    }
}
