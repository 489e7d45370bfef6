import ArgumentParser
import Foundation
import Recording

/// `headscan replay`: plays a recording through the same frame source the app uses.
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Play a scan back frame by frame, at its recorded pace or as fast as possible.",
        discussion: """
            Decodes every frame in order as a replay in the app would, skipping damaged \
            frames, and reports frame rate and skipped frames. Memory stays bounded whatever \
            the recording's length.

            Examples:
              headscan replay scan.hscan              # real time
              headscan replay scan.hscan --speed 0    # as fast as possible
            """)

    @Argument(help: "The scan file (.hscan).")
    var file: String

    @Option(help: "Playback speed: 1 = as recorded, 2 = twice as fast, 0 = as fast as possible.")
    var speed: Double = 1

    @Option(help: "First frame to play.")
    var start = 0

    func validate() throws {
        guard speed >= 0 else { throw ValidationError("--speed must be 0 or more") }
    }

    func run() async throws {
        let reader = try ScanReader(url: fileURL(file))
        let source = ReplaySource(
            reader: reader, pacing: speed > 0 ? .recorded(speed: speed) : .asFastAsPossible, startIndex: start)
        let clock = ContinuousClock()
        let began = clock.now
        var played = 0
        var bar = ProgressBar("Replaying")
        while try await source.nextFrame() != nil {
            played += 1
            bar.update(await source.position, of: reader.frameCount)
        }
        let seconds = (clock.now - began).seconds
        let skipped = await source.skipped
        print("Played \(played) frames in \(String(format: "%.2f", seconds)) s "
              + "(\(String(format: "%.1f", Double(played) / max(seconds, 1e-9))) frames/s), skipped \(skipped.count)")
        for problem in skipped { writeError("skipped: \(problem)\n") }
    }
}
