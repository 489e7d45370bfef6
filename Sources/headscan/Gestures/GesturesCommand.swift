import ArgumentParser
import Foundation
import HeadGestures

/// `headscan gestures`: head gestures (looks, nods, shakes) from face landmarks.
struct GesturesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gestures",
        abstract: "Head gestures from the front camera's face landmarks: looks, nods and shakes.",
        discussion: GesturesTrackCommand.formatHelp,
        subcommands: [GesturesTrackCommand.self, GesturesSimulateCommand.self, GesturesBenchCommand.self],
        defaultSubcommand: GesturesTrackCommand.self)
}

/// `headscan gestures FACES.jsonl`: the gesture events of a recorded face stream.
struct GesturesTrackCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "track",
        abstract: "Print the gesture events of a face stream (the default: `headscan gestures FACES.jsonl`).",
        discussion: formatHelp)

    static let formatHelp = """
        Reads one JSON object per line and camera frame: "t" (seconds), "width" and \
        "height" (pixels), and the face's "leftEye", "rightEye" and "mouth" as [x, y] in \
        unmirrored image pixels; {"t":…,"face":null} when no face was found. Optional: \
        "bounds":[x,y,width,height] and "orientation":"up|down|left|right" (how the buffer \
        must be turned to be upright; default up).

        The head pointer is the centre of the circle through both eyes and the mouth. The first \
        steady frames calibrate its resting place (startedTracking); around it lies the idle \
        zone. Directions are the person's own: turning to one's own left is left (the face \
        moves to the right of the unmirrored picture). Discrete mode (default) reports \
        "looked" once the head is back; continuous mode reports startedLooking and \
        stoppedLooking. Two quick looks down are a nod, quick looks left and right twice a \
        shake. --json prints {"events":[{"t":…,"type":…,"direction":…}],"calibration":{…},"frames":{…}}.

        Settings (--settings, a JSON file or inline JSON; missing keys keep their defaults; \
        distances in eye distances): \(gestureSettingsHelp).

        Examples:
          headscan gestures simulate --out faces.jsonl --truth truth.json
          headscan gestures faces.jsonl
          headscan gestures faces.jsonl --settings '{"mode":"continuous"}' --json

        A line of FACES.jsonl:
        {"t":0.033,"width":640,"height":480,"leftEye":[352,210],"rightEye":[288,211],"mouth":[320,285]}
        """

    @Argument(help: "The face stream, one JSON object per line (.jsonl).")
    var faces: String

    @Option(help: "Gesture settings: a JSON file or inline JSON (see the discussion for the keys).")
    var settings: String?

    @OptionGroup var outputOptions: OutputOptions

    @Flag(help: "Also list the pointer of every tracked frame (moved events).")
    var moves = false

    func run() throws {
        let settings = try loadGestureSettings(settings)
        let text: String
        do { text = try String(contentsOf: fileURL(faces), encoding: .utf8) } catch {
            throw GestureError.fileAccess(path: faces, error.localizedDescription)
        }
        let frames = try FaceStreamFormat.frames(in: text)
        let tracker = try GestureTracker(settings: settings)
        var events: [TimedGestureEvent] = []
        for frame in frames {
            for event in tracker.process(frame) where moves || event.event.typeName != "moved" { events.append(event) }
        }
        let output = GesturesOutput(events: events, engine: tracker.engine)
        try outputOptions.emit(output)
    }
}

/// Every gesture setting with its default and meaning, from the settings type.
let gestureSettingsHelp = SettingsHelp.list(
    defaults: GestureSettings(), keys: GestureSettings.keys, explanations: GestureSettings.explanations,
    choices: ["mode": [GestureSettings().mode.rawValue] + GestureMode.allCases.map(\.rawValue).filter { $0 != GestureSettings().mode.rawValue }])

/// Settings from `--settings`: inline JSON or a file.
func loadGestureSettings(_ argument: String?) throws -> GestureSettings {
    guard let argument else { return GestureSettings() }
    if argument.trimmingCharacters(in: .whitespaces).hasPrefix("{") { return try GestureSettings.decode(json: argument) }
    do {
        return try GestureSettings.decode(json: try String(contentsOf: fileURL(argument), encoding: .utf8))
    } catch let error as GestureError {
        throw error
    } catch {
        throw GestureError.fileAccess(path: argument, error.localizedDescription)
    }
}
