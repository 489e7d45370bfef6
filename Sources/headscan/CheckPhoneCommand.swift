import ArgumentParser
import Foundation
import Reconstruction
import Recording

/// `headscan check-phone`: does this phone measure true sizes? Judged from a printed board.
struct CheckPhoneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-phone",
        abstract: "Check a phone against a printed marker board: pass if it measures the board within 0.5 % of its printed size.",
        discussion: """
            Record the board with the phone held about 30 cm away, the whole board in view, \
            tilting slowly left, right, up and down for ten seconds. The recording's markers are \
            mapped in 3D with the camera's focal length estimated (and corrected past 1 %); the \
            markers' sides in the map are then compared with their printed sides, which the \
            recording's layout gives (or --cap FILE). What remains is the error every head \
            measurement from this phone would carry. Exit status 0 for pass, 1 for fail, 3 when \
            the recording is not enough to judge.

            Examples:
              headscan check-phone board.hscan
              headscan check-phone board.hscan --json
              headscan simulate-board --distance 0.3 --rows 5 --columns 7 --marker-mm 20 --gap-mm 5 \\
                --dictionary 4x4_100 --depth-scale-error 1 --out b.hscan && headscan check-phone b.hscan
            """)

    @Argument(help: "The board recording (.hscan).", completion: .file(extensions: ["hscan"]))
    var file: String

    @OptionGroup var cap: CapOption

    @OptionGroup var outputOptions: OutputOptions

    @Option(help: "The largest accepted size error, percent.")
    var limitPercent = 0.5

    func validate() throws {
        guard limitPercent > 0, limitPercent <= 10 else { throw ValidationError("--limit-percent must be in 0...10") }
    }

    func run() throws {
        let reader = try ScanReader(url: fileURL(file))
        let layout = try cap.layout(for: reader.header)
        var options = ReconstructionOptions()
        options.frameStride = 2
        options.fuseSurface = false
        var bar = StagedProgressBar("Checking")
        let result = try Reconstructor(layout: layout, options: options).reconstruct(
            frameCount: reader.frameCount, concurrentFrame: { try reader.frame(at: $0) },
            progress: { bar.update(stage: $0.stage.label, $0.done + 1, of: $0.total) })
        let check = PhoneCheck(result, layout: layout, limit: limitPercent / 100)
        if outputOptions.json {
            try printJSON(check)
        } else {
            print(check.summary)
            print(
                String(
                    format: "Board scale %.4f ± %.4f by %@ over %d markers, %d views", check.scale, check.scaleSigma, check.measuredBy,
                    check.markersMeasured, check.keyframes)
                    + (check.focalScale.map { String(format: "; focal length %.4f ± %.4f of the factory value", $0, check.focalScaleSigma ?? 0) }
                        ?? ""))
        }
        switch check.verdict {
        case .pass: return
        case .fail: throw ExitCode(1)
        case .inconclusive: throw ExitCode(3)
        }
    }
}
