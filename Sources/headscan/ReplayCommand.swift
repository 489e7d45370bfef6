import ArgumentParser
import Feedback
import Foundation
import Markers
import Recording
import Scanning

/// `headscan replay`: plays a recording through the same frame source the app uses, and by
/// default through marker detection and the scan guide, as live scanning would.
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a scan through marker detection and the scan guide (or just its frames).",
        discussion: """
            Decodes every frame in order as a replay in the app would, skipping damaged \
            frames. By default each frame goes through marker detection and the scan guide: \
            the feedback timeline (vibration, speech, progress) and a summary (time in each \
            position class, time to each milestone, completion, missing markers). A scan \
            recorded without stickers (the setting withoutMarkers in its header), or any scan \
            with a settings file that sets it, is guided by the head's surface instead: the \
            head in the depth, the share of its surface seen. With \
            --frames-only it only plays the frames and reports frame rate and skipped frames. \
            Memory stays bounded whatever the recording's length.

            \(GuideOptions.settingsHelp)

            Examples:
              headscan replay scan.hscan                          # feedback timeline
              headscan replay scan.hscan --json --speech out.wav  # JSON and the spoken feedback
              headscan replay scan.hscan --frames-only            # frames in real time
              headscan replay scan.hscan --frames-only --speed 0  # as fast as possible
              echo '{"withoutMarkers": true}' > surface.json
              headscan replay printed-cap.hscan --settings surface.json   # guided by the head's surface
            """)

    @Argument(help: "The scan file (.hscan).", completion: .file(extensions: ["hscan"]))
    var file: String

    @Option(help: "Playback speed: 1 = as recorded, 2 = twice as fast, 0 = as fast as possible (default: 1 with --frames-only, else 0).")
    var speed: Double?

    @Option(help: "First frame to play.")
    var start = 0

    @Flag(help: "Only play the frames: no detection, no guide.")
    var framesOnly = false

    @OptionGroup var options: GuideOptions

    @OptionGroup var cap: CapOption

    func validate() throws {
        if let speed, speed < 0 { throw ValidationError("--speed must be 0 or more") }
        if framesOnly, options.outputOptions.json || options.speech != nil || options.settings != nil {
            throw ValidationError("--json, --speech and --settings need the guide; drop --frames-only")
        }
    }

    func run() async throws {
        let reader = try ScanReader(url: fileURL(file))
        let speed = speed ?? (framesOnly ? 1 : 0)
        let source = ReplaySource(
            reader: reader, pacing: speed > 0 ? .recorded(speed: speed) : .asFastAsPossible, startIndex: start)
        if framesOnly {
            try await playFrames(reader: reader, source: source)
        } else {
            try await guide(reader: reader, source: source)
        }
    }

    private func playFrames(reader: ScanReader, source: ReplaySource) async throws {
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
        print(
            "Played \(played) frames in \(String(format: "%.2f", seconds)) s "
                + "(\(String(format: "%.1f", Double(played) / max(seconds, 1e-9))) frames/s), skipped \(skipped.count)")
        for problem in skipped { writeError("skipped: \(problem)\n") }
    }

    private func guide(reader: ScanReader, source: ReplaySource) async throws {
        let layout = try cap.layout(for: reader.header)
        var settings = try options.loadSettings()
        if options.settings == nil {
            settings.markerSide = layout.markerSide
            // As recorded: a scan the app made without stickers is guided by the head's surface.
            settings.withoutMarkers = reader.header.guidedWithoutMarkers
        }
        let session = try GuideSession(settings: settings, layout: layout, console: !options.outputOptions.json)
        let pipeline = ScanPipeline(guide: session.guide)
        var bar = ProgressBar("Guiding")
        try await pipeline.run(
            source,
            progress: { guided in
                if options.outputOptions.json { bar.update(guided.index + 1, of: reader.frameCount) }
            })
        try session.finish(options: options)
        for problem in pipeline.damaged { writeError("skipped: \(problem)\n") }
    }
}
