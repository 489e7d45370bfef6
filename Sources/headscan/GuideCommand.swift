import ArgumentParser
import Feedback
import Foundation
import Markers
import Scanning

/// `headscan guide`: the scan guide alone over recorded marker observations.
struct GuideCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "guide",
        abstract: "Run the scan guide (vibration, speech, progress) over recorded marker observations.",
        discussion: """
            Reads one JSON object per line:
              {"t":0.033,"width":640,"height":480,"markers":[{"id":5,"corners":[[x,y],[x,y],[x,y],[x,y]],"depths":[0.31,0.31,null,0.32]}]}
            (corners in OpenCV order, pixels; null = no depth) and prints the feedback timeline \
            and a summary, or with --json one object with frames, events, decisions, speech \
            and summary.

            \(GuideOptions.settingsHelp)

            Examples:
              headscan guide --observations scan.jsonl
              headscan guide --observations scan.jsonl --settings '{"language":"en","debounceFrames":6}' --json
            """)

    @Option(help: "Observations, one JSON object per line (.jsonl).")
    var observations: String

    @OptionGroup var options: GuideOptions

    func run() throws {
        let settings = try options.loadSettings()
        let session = try GuideSession(settings: settings, layout: .standard, console: !options.outputOptions.json)
        let text = try String(contentsOf: fileURL(observations), encoding: .utf8)
        let decoder = JSONDecoder()
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { continue }
            let observation: FrameObservation
            do {
                observation = try decoder.decode(FrameObservation.self, from: Data(trimmed.utf8))
            } catch {
                throw FeedbackError.invalidObservation(line: number + 1, "\(error)")
            }
            session.add(observation)
        }
        try session.finish(options: options)
    }
}

/// Options shared by `guide` and `replay`.
struct GuideOptions: ParsableArguments {
    /// The settings' keys with their defaults, read from the settings type itself so the help
    /// cannot drift from the code.
    static var settingsHelp: String {
        "Settings (--settings, a JSON file or inline JSON; missing keys keep their defaults): "
            + FeedbackSettings.documentedDefaults.map { "\($0.key) (\($0.value))" }.joined(separator: ", ")
            + ". Directions are given as the operator sees the portrait picture: movePhone names where the head lies, "
            + "which is where to move the phone; headInPicture names where the head should move in the picture, the other way."
    }

    @Option(help: "Feedback settings: a JSON file or inline JSON (see the discussion for the keys).")
    var settings: String?

    @OptionGroup var outputOptions: OutputOptions

    @Option(help: "Render the spoken feedback with espeak-ng into this WAV file, on the scan's clock.")
    var speech: String?

    func loadSettings() throws -> FeedbackSettings {
        guard let settings else { return FeedbackSettings() }
        let data =
            settings.trimmingCharacters(in: .whitespaces).hasPrefix("{")
            ? Data(settings.utf8) : try Data(contentsOf: fileURL(settings))
        do {
            let decoded = try JSONDecoder().decode(FeedbackSettings.self, from: data)
            try decoded.validate()
            return decoded
        } catch let error as FeedbackError {
            throw ValidationError("--settings: \(error)")
        } catch let DecodingError.dataCorrupted(context) {
            throw ValidationError("--settings: \(context.debugDescription)")
        } catch {
            throw ValidationError("--settings: \(error)")
        }
    }
}

/// One scan through the guide: collects frames, events and decisions, prints the timeline as
/// it goes, and writes the results.
struct GuideSession {
    /// Detection, guide and the sinks below; the replay's pipeline runs it.
    let guide: FrameGuide
    private let record = RecordSink()
    private let log = FrameLogSink()
    private let phrasebook: Phrasebook

    init(settings: FeedbackSettings, layout: CapLayout, console: Bool) throws {
        phrasebook = Phrasebook(language: settings.language)
        var sinks: [any PipelineSink] = [record, log]
        if console { sinks.append(FeedbackEventSink(ConsoleSink(phrasebook: phrasebook))) }
        guide = try FrameGuide(layout: layout, settings: settings, sinks: sinks)
    }

    /// Guides one observation read from a log.
    func add(_ observation: FrameObservation) {
        guide.guide(observation, index: guide.framesGuided)
    }

    var summary: GuideSummary { record.summary }

    func finish(options: GuideOptions) throws {
        guide.finish()
        let events = record.events
        let lastTime = record.summary.duration
        let guide = self.guide.guide
        var speechSink = SpeechSink(
            scheduler: SpeechScheduler(
                sameInstructionInterval: guide.settings.sameInstructionInterval, duration: SpeechScheduler.estimatedDuration(phrasebook)))
        var utterances: [Utterance]
        if let path = options.speech {
            let synthesizer = try SpeechRenderer.espeak(voice: guide.settings.language.espeakVoice)
            let renderer = SpeechRenderer(phrasebook: phrasebook, synthesize: synthesizer)
            let (clip, rendered) = try renderer.render(
                events: events, duration: summary.duration, sameInstructionInterval: guide.settings.sameInstructionInterval)
            do { try Data(clip.wav()).write(to: fileURL(path)) } catch { throw FeedbackError.cannotWrite("\(path): \(error)") }
            utterances = rendered
            if !options.outputOptions.json { print("speech: \(rendered.count) utterances, \(String(format: "%.1f", clip.duration)) s → \(path)") }
        } else {
            for event in events { speechSink.receive(event) }
            speechSink.finish(at: lastTime)
            utterances = speechSink.utterances
        }
        if options.outputOptions.json {
            try printJSON(
                GuideOutput(
                    frames: log.frames, events: events.map { GuideEventRecord($0, phrasebook: phrasebook) },
                    decisions: guide.decisions,
                    speech: utterances.map {
                        GuideSpeechRecord(start: $0.start, end: $0.end, phrase: phrasebook.text($0.phrase), priority: $0.priority.rawValue)
                    },
                    summary: summary))
        } else {
            print(Self.text(summary))
        }
    }

    static func text(_ s: GuideSummary) -> String {
        func seconds(_ v: Double?) -> String { v.map { String(format: "%.1f s", $0) } ?? "—" }
        var lines = [String(format: "%d frames, %.1f s", s.frames, s.duration)]
        lines.append(
            "position (published): " + ["ideal", "tooClose", "off"].map { "\($0) \(seconds(s.publishedSeconds[$0] ?? 0))" }.joined(separator: ", "))
        lines.append(
            "position (raw):       " + ["ideal", "tooClose", "off"].map { "\($0) \(seconds(s.rawSeconds[$0] ?? 0))" }.joined(separator: ", "))
        lines.append(
            "milestones: "
                + (s.milestones.isEmpty ? "none" : s.milestones.map { "\($0.percent) % at \(seconds($0.seconds))" }.joined(separator: ", ")))
        lines.append(
            "completed: \(seconds(s.completedSeconds)); progress \(s.progressPercent) %; regions \(s.regionsCovered.joined(separator: " ")); ears/face seen: \(s.featuresSeen.joined(separator: " "))"
        )
        if s.withoutMarkers == true {
            lines.append("without markers: \(s.progressPercent) % of the head's surface seen")
        } else {
            lines.append("missing markers (\(s.missingMarkers.count)): \(s.missingMarkers.map(String.init).joined(separator: " "))")
        }
        lines.append("vibration started \(s.hapticStarts) times, \(s.speechRequests) speech requests")
        return lines.joined(separator: "\n")
    }
}

/// Keeps each frame's position and progress for the JSON output.
final class FrameLogSink: PipelineSink {
    private(set) var frames: [GuideFrameRecord] = []

    func receive(_ frame: GuidedFrame, guide: ScanGuide) {
        let update = frame.update
        frames.append(
            GuideFrameRecord(
                t: update.time, raw: update.raw.kind.rawValue, published: update.published.kind.rawValue,
                direction: update.published.direction.rawValue, progress: update.progress.fraction))
    }
}

/// One frame in the JSON output.
struct GuideFrameRecord: Encodable {
    var t: Double
    var raw: String
    var published: String
    var direction: String
    var progress: Double
}

/// One event in the JSON output.
struct GuideEventRecord: Encodable {
    var t: Double
    var type: String
    var phrase: String?
    var key: String?
    var priority: String?
    var percent: Int?
    var colour: String?
    var missing: [Int]?
    var features: [String]?

    init(_ e: TimedFeedbackEvent, phrasebook: Phrasebook) {
        t = e.time
        type = e.event.typeName
        switch e.event {
        case .speak(let p, let priority):
            phrase = phrasebook.text(p)
            key = p.key
            self.priority = priority.rawValue
            if case .percent(let n) = p { percent = n }
        case .milestone(let n): percent = n
        case .progressColourChanged(let c): colour = c.rawValue
        case .completed(let m): missing = m
        case .reminder(let f): features = f.map(\.rawValue)
        case .hapticStart, .hapticStop: break
        }
    }
}

/// One scheduled utterance in the JSON output.
struct GuideSpeechRecord: Encodable {
    var start: Double
    var end: Double
    var phrase: String
    var priority: String
}

/// `guide --json` and `replay --json`.
struct GuideOutput: Encodable {
    var frames: [GuideFrameRecord]
    var events: [GuideEventRecord]
    var decisions: [Decision]
    var speech: [GuideSpeechRecord]
    var summary: GuideSummary
}
