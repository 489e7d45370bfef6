import ArgumentParser
import Foundation
import Geometry
import Markers
import Recording
import Simulation

/// `headscan simulate-board`: a recording of a flat printed marker board with exact truth.
struct SimulateBoardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate-board",
        abstract: "Simulate a recording of a flat printed marker board seen from a hand-held camera.",
        discussion: """
            The camera looks at the board from about --distance, sweeping up to --sweep \
            degrees left and right (half that up and down) and standing still for a second \
            every three seconds, with a hand's tremor; the depth has the TrueDepth sensor's \
            noise, which grows with the square of the distance. The board: --rows by \
            --columns markers of --marker-mm with --gap-mm between them, IDs from 0 row by \
            row; the default is twelve AprilTag 36h11 tags of 95.5 mm seen from a metre.

            Writes the scan (its header keeps the board's layout, so `headscan reconstruct \
            --map-only` reads it as it is) and, with --truth, a JSON file: the markers' \
            corners in the board frame (x right, y up, z out of the print, origin at its \
            centre) and per frame the camera's pose in that frame and the exact corners.

            Examples:
              headscan simulate-board --out board.hscan --truth board.truth.json
              headscan simulate-board --distance 0.3 --marker-mm 20 --gap-mm 5 --rows 5 --columns 7 \\
                --dictionary 4x4_100 --out near.hscan
            """)

    @Option(help: "The scan file to create.", completion: .file(extensions: ["hscan"]))
    var out: String

    @Option(help: "The truth JSON to create.")
    var truth: String?

    @Option(help: "Seed of every random choice.")
    var seed: UInt64 = 1

    @Option(help: "Length of the recording in seconds (30 frames per second).")
    var seconds: Double = 10

    @Option(help: "Distance from the camera to the board, metres.")
    var distance = 1.0

    @Option(help: "Largest view angle left and right of the board's normal, degrees.")
    var sweep = 25.0

    @Option(help: "Rows of markers.")
    var rows = 3

    @Option(help: "Columns of markers.")
    var columns = 4

    @Option(help: "Printed side of each marker's black square, millimetres.")
    var markerMM = 95.5

    @Option(help: "White space between neighbouring markers, millimetres.")
    var gapMM = 28.7

    @Option(help: "The markers' dictionary (OpenCV's name, e.g. apriltag_36h11, aruco_original, 4x4_100).")
    var dictionary = "apriltag_36h11"

    @OptionGroup var camera: CameraErrorOptions

    @OptionGroup var colorOptions: ColorOptions

    @Flag(help: "Replace output files that exist.")
    var overwrite = false

    func validate() throws {
        guard seconds > 0, seconds <= 600 else { throw ValidationError("--seconds must be in 0...600") }
        guard sweep >= 0, sweep <= 60 else { throw ValidationError("--sweep must be in 0...60 degrees") }
    }

    func run() throws {
        let board = MarkerBoard(
            rows: rows, columns: columns, markerSide: markerMM / 1000, gap: gapMM / 1000, dictionaryName: dictionary)
        var configuration = BoardSimulator.Configuration(board: board, seed: seed, seconds: seconds, distance: distance, sweepDegrees: sweep)
        configuration.recordedFocalError = camera.focalError / 100
        configuration.sensor.depthScale = Float(1 + camera.depthScaleError / 100)
        configuration.sensor.depthShiftPixels = camera.depthShiftPixels.flatMap { $0 == .zero ? nil : $0 }
        configuration.recordedPrincipalShift = camera.shift ?? .zero
        configuration.intrinsics.distortion = camera.distortion ?? .none
        configuration.recordsDistortion = !camera.distortionUnrecorded
        let simulator = try BoardSimulator(configuration)
        if let truth, !overwrite, FileManager.default.fileExists(atPath: fileURL(truth).path) {
            throw ToolError("\(truth) exists; pass --overwrite to replace it")
        }
        let k = configuration.recordedIntrinsics
        let header = ScanHeader(
            device: "simulator", appVersion: HeadScanVersion.current, colorIntrinsics: k, depthIntrinsics: k,
            layout: board.layout, createdAt: Date(timeIntervalSince1970: 1_767_225_600),
            metadata: ["scene": "board", "seed": "\(seed)", "distance": "\(distance)"])
        let writer = try ScanWriter(url: fileURL(out), header: header, options: .init(colorCodec: colorOptions.codec, overwrite: overwrite))
        var frames: [FrameTruth] = []
        var bar = ProgressBar("Simulating")
        while let simulated = simulator.nextFrame() {
            try writer.append(simulated.frame)
            frames.append(simulated.truth)
            bar.update(frames.count, of: simulator.frameCount)
        }
        try writer.close()
        print("Wrote \(frames.count) frames of a \(rows)x\(columns) board at \(distance) m to \(out)")
        if let truth {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            try encoder.encode(BoardTruth(simulator, frames: frames)).write(to: fileURL(truth))
            print("Wrote truth to \(truth)")
        }
    }
}
