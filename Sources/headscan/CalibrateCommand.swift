import ArgumentParser
import Foundation
import Geometry
import Markers
import Recording
import Reconstruction

/// `headscan calibrate`: the camera's focal length and principal point, and how true its depth
/// is, from a recording of a printed marker board.
struct CalibrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Calibrate a camera from a recording of a printed marker board: focal length, principal point, depth.",
        discussion: """
            Record the board (`headscan markers board`) from about 30 cm, the whole board in \
            view, tilting the phone left, right, up and down and turning it about its own axis \
            for ten seconds: the principal point is only told apart from a turned camera by \
            views from many tilts. The markers are mapped with the focal length and the \
            principal point estimated together with the poses (the recording's values as \
            priors), and the mapped markers' sides against their printed sides tell how far \
            the depth reads off. Prints each value with its standard deviation; --out writes \
            the corrected camera as {fx, fy, cx, cy, width, height}, which `reconstruct \
            --camera` and `import-tum --intrinsics` read.

            Examples:
              headscan calibrate board.hscan --out camera.json
              headscan calibrate board.hscan --json
            """)

    @Argument(help: "The board recording (.hscan).", completion: .file(extensions: ["hscan"]))
    var file: String

    @Option(help: "Write the corrected colour camera as JSON {fx, fy, cx, cy, width, height}.")
    var out: String?

    @OptionGroup var cap: CapOption

    @OptionGroup var outputOptions: OutputOptions

    func run() throws {
        let reader = try ScanReader(url: fileURL(file))
        let layout = try cap.layout(for: reader.header)
        var options = ReconstructionOptions()
        options.frameStride = 2
        options.fuseSurface = false
        options.estimatesPrincipalPoint = true
        options.focalOverrideThreshold = 0
        var bar = StagedProgressBar("Calibrating")
        let result = try Reconstructor(layout: layout, options: options).reconstruct(
            frameCount: reader.frameCount, frame: { try reader.frame(at: $0) },
            progress: { bar.update(stage: $0.stage.label, $0.done + 1, of: $0.total) })
        let calibration = CameraCalibration(result, layout: layout, recorded: reader.header.colorIntrinsics)
        if let out {
            let k = calibration.camera
            let object: [String: Any] = ["fx": k.fx, "fy": k.fy, "cx": k.cx, "cy": k.cy, "width": k.width, "height": k.height]
            try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted]).write(to: fileURL(out))
        }
        if outputOptions.json {
            try printJSON(calibration)
        } else {
            print(calibration.text + (out.map { "\nCamera written to \($0)" } ?? ""))
        }
    }
}

/// What `calibrate` found, as printed and as JSON.
struct CameraCalibration: Encodable {
    var fx, fy, cx, cy: Double
    var width, height: Int
    /// Standard deviations of the focal length and of the principal point, pixels.
    var focalSigma, cxSigma, cySigma: Double
    /// The recorded (factory) values.
    var recordedFx, recordedCx, recordedCy: Double
    /// Measured depth over true depth, from the mapped markers' sides, and its standard error.
    var depthFactor, depthFactorSigma: Double
    var markers, views: Int

    init(_ result: Reconstruction, layout: CapLayout, recorded: CameraIntrinsics) {
        let s = result.statistics
        let k = s.appliedCorrection.applied(to: recorded)
        (fx, fy, cx, cy, width, height) = (k.fx, k.fy, k.cx, k.cy, k.width, k.height)
        focalSigma = (s.focalScaleSigma ?? 0) * recorded.fx
        cxSigma = s.principalPointSigma?.first ?? 0
        cySigma = s.principalPointSigma?.last ?? 0
        (recordedFx, recordedCx, recordedCy) = (recorded.fx, recorded.cx, recorded.cy)
        let check = PhoneCheck(result, layout: layout)
        depthFactor = check.scale
        depthFactorSigma = check.scaleSigma
        markers = check.markersMeasured
        views = s.keyframes
    }

    var camera: CameraIntrinsics { CameraIntrinsics(fx: fx, fy: fy, cx: cx, cy: cy, width: width, height: height) }

    var text: String {
        let percent = (fx / recordedFx - 1) * 100
        return """
            Focal length \(String(format: "%.2f ± %.2f px", fx, focalSigma)) (recorded \(String(format: "%.2f", recordedFx)), \
            \(String(format: "%+.2f", percent)) %)
            Principal point (\(String(format: "%.2f ± %.2f", cx, cxSigma)), \(String(format: "%.2f ± %.2f", cy, cySigma))) px \
            (recorded \(String(format: "%.2f, %.2f", recordedCx, recordedCy)))
            Depth reads \(String(format: "%.2f %% %@ (± %.2f %%)", abs(depthFactor - 1) * 100, depthFactor >= 1 ? "too far" : "too near", depthFactorSigma * 100)) \
            by the printed markers' size (or the board was not printed at 100 %)
            From \(markers) markers in \(views) views of \(width)x\(height) pictures
            """
    }
}
