import ArgumentParser
import Foundation
import Geometry
import Markers
import Reconstruction
import Recording

/// `headscan calibrate`: the camera's focal length and principal point, and how true its depth
/// is, from a recording of a printed marker board.
struct CalibrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Calibrate a camera from a recording of a printed marker board: focal length, principal point, lens distortion, depth.",
        discussion: """
            Record the board (`headscan markers board`) from about 30 cm, the whole board in \
            view, tilting the phone left, right, up and down and turning it about its own axis \
            for ten seconds: the principal point is only told apart from a turned camera by \
            views from many tilts. The markers are mapped with the focal length, the \
            principal point and the lens's first radial distortion term (k1, OpenCV's) estimated \
            together with the poses (the recording's values as priors), and the mapped markers' \
            sides against their printed sides tell how far the depth reads off. Prints each \
            value with its standard deviation; --out writes the corrected camera as {fx, fy, \
            cx, cy, width, height, k1, k2}, which `reconstruct --camera` and `import-tum \
            --intrinsics` read. Radial distortion needs markers near the picture's corners: \
            keep the board filling the view.

            Examples:
              headscan calibrate board.hscan --out camera.json
              headscan calibrate board.hscan --json
            """)

    @Argument(help: "The board recording (.hscan).", completion: .file(extensions: ["hscan"]))
    var file: String

    @Option(help: "Write the corrected colour camera as JSON {fx, fy, cx, cy, width, height, k1, k2}.")
    var out: String?

    @Flag(help: "Keep the recording's lens distortion (a pinhole if it states none) instead of estimating k1.")
    var holdDistortion = false

    @OptionGroup var cap: CapOption

    @OptionGroup var outputOptions: OutputOptions

    func run() throws {
        let reader = try ScanReader(url: fileURL(file))
        let layout = try cap.layout(for: reader.header)
        var options = ReconstructionOptions()
        options.frameStride = 2
        options.fuseSurface = false
        options.estimatesPrincipalPoint = true
        options.estimatesDistortion = !holdDistortion
        options.focalOverrideThreshold = 0
        var bar = StagedProgressBar("Calibrating")
        let result = try Reconstructor(layout: layout, options: options).reconstruct(
            frameCount: reader.frameCount, concurrentFrame: { try reader.frame(at: $0) },
            progress: { bar.update(stage: $0.stage.label, $0.done + 1, of: $0.total) })
        let calibration = CameraCalibration(result, layout: layout)
        if let out {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            try encoder.encode(calibration.camera).write(to: fileURL(out), options: .atomic)
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
    /// The lens's first and second radial terms, k1's standard deviation (0: held).
    var k1, k2, k1Sigma: Double
    /// The recorded (factory) values.
    var recordedFx, recordedCx, recordedCy, recordedK1: Double
    /// Measured depth over true depth, from the mapped markers' sides, and its standard error.
    var depthFactor, depthFactorSigma: Double
    var markers, views: Int

    /// What `result`, a board's reconstruction with the camera estimated, found.
    init(_ result: Reconstruction, layout: CapLayout) {
        let settled = result.camera, recorded = settled.recorded
        let k = settled.calibrated
        (fx, fy, cx, cy, width, height) = (k.fx, k.fy, k.cx, k.cy, k.width, k.height)
        focalSigma = (settled.focalScaleSigma ?? 0) * recorded.fx
        cxSigma = settled.principalShiftSigma?.x ?? 0
        cySigma = settled.principalShiftSigma?.y ?? 0
        (k1, k2) = (k.distortion.k1, k.distortion.k2)
        k1Sigma = settled.k1Sigma ?? 0
        (recordedFx, recordedCx, recordedCy, recordedK1) = (recorded.fx, recorded.cx, recorded.cy, recorded.distortion.k1)
        let check = PhoneCheck(result, layout: layout)
        depthFactor = check.scale
        depthFactorSigma = check.scaleSigma
        markers = check.markersMeasured
        views = result.statistics.keyframes
    }

    var camera: CameraIntrinsics {
        CameraIntrinsics(fx: fx, fy: fy, cx: cx, cy: cy, width: width, height: height, distortion: RadialDistortion(k1: k1, k2: k2))
    }

    var text: String {
        let percent = (fx / recordedFx - 1) * 100
        return """
            Focal length \(String(format: "%.2f ± %.2f px", fx, focalSigma)) (recorded \(String(format: "%.2f", recordedFx)), \
            \(String(format: "%+.2f", percent)) %)
            Principal point (\(String(format: "%.2f ± %.2f", cx, cxSigma)), \(String(format: "%.2f ± %.2f", cy, cySigma))) px \
            (recorded \(String(format: "%.2f, %.2f", recordedCx, recordedCy)))
            Lens distortion k1 \(String(format: "%+.4f ± %.4f", k1, k1Sigma)) (recorded \(String(format: "%+.4f", recordedK1))\
            \(k1Sigma == 0 ? ", held" : ""))
            Depth reads \(String(format: "%.2f %% %@ (± %.2f %%)", abs(depthFactor - 1) * 100, depthFactor >= 1 ? "too far" : "too near", depthFactorSigma * 100)) \
            by the printed markers' size (or the board was not printed at 100 %)
            From \(markers) markers in \(views) views of \(width)x\(height) pictures
            """
    }
}
