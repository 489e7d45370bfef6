#if os(iOS)
import AVFoundation
import Feedback
import Foundation

/// Speaks phrases with `AVSpeechSynthesizer` in German or English, also in silent mode.
///
/// The audio session is `.playback` with the `.spokenAudio` mode (other audio ducks). An
/// interruption (a call) pauses speech; when it ends the session is activated again and
/// speech goes on where the system allows it. Utterances are never cut off: the synthesizer
/// queues them, and `SpeechSink`'s scheduler decides what is said at all.
public final class SpeechOutput: NSObject, @unchecked Sendable {
    private let synthesizer = AVSpeechSynthesizer()
    private var observer: NSObjectProtocol?

    /// A speech output; `activate()` prepares the audio session.
    override public init() {
        super.init()
        observer = NotificationCenter.default.addObserver(
            forName: AVAudioSession.interruptionNotification, object: AVAudioSession.sharedInstance(), queue: nil
        ) { [weak self] note in
            self?.interrupted(note)
        }
    }

    deinit {
        if let observer { NotificationCenter.default.removeObserver(observer) }
    }

    /// Sets up and activates the audio session so speech sounds in silent mode.
    public func activate() {
        let session = AVAudioSession.sharedInstance()
        do {
            try session.setCategory(.playback, mode: .spokenAudio, options: [.duckOthers])
            try session.setActive(true)
        } catch {
            // Speech still works with the default session, only not in silent mode.
        }
    }

    /// Lets other apps' audio return to full volume.
    public func deactivate() {
        try? AVAudioSession.sharedInstance().setActive(false, options: [.notifyOthersOnDeactivation])
    }

    /// Speaks `text` in `language` after what is already being said.
    public func speak(_ text: String, language: Language) {
        let utterance = AVSpeechUtterance(string: text)
        utterance.voice = AVSpeechSynthesisVoice(language: Self.voiceLanguage(language))
        utterance.rate = AVSpeechUtteranceDefaultSpeechRate
        synthesizer.speak(utterance)
    }

    /// Stops speaking at the end of the current word (the scan ended or paused).
    public func stop() {
        synthesizer.stopSpeaking(at: .word)
    }

    /// The BCP-47 code of the voice for `language`.
    public static func voiceLanguage(_ language: Language) -> String {
        switch language {
        case .de: "de-DE"
        case .en: "en-US"
        }
    }

    private func interrupted(_ note: Notification) {
        guard let raw = note.userInfo?[AVAudioSessionInterruptionTypeKey] as? UInt,
            let type = AVAudioSession.InterruptionType(rawValue: raw)
        else { return }
        switch type {
        case .began:
            synthesizer.pauseSpeaking(at: .immediate)
        case .ended:
            let options = (note.userInfo?[AVAudioSessionInterruptionOptionKey] as? UInt)
                .map(AVAudioSession.InterruptionOptions.init(rawValue:)) ?? []
            if options.contains(.shouldResume) {
                activate()
                synthesizer.continueSpeaking()
            } else {
                synthesizer.stopSpeaking(at: .immediate)
            }
        @unknown default:
            break
        }
    }
}

/// The guide's speech events on the phone: the shared `SpeechScheduler` decides what is said
/// and what replaces what; the phrasebook gives the words.
public struct LiveSpeechSink: FeedbackSink {
    private var scheduler: SpeechScheduler
    private let phrasebook: Phrasebook
    private let output: SpeechOutput

    /// A sink speaking through `output` in `settings`' language.
    public init(output: SpeechOutput, settings: FeedbackSettings) {
        let phrasebook = Phrasebook(language: settings.language)
        self.phrasebook = phrasebook
        self.output = output
        scheduler = SpeechScheduler(
            sameInstructionInterval: settings.sameInstructionInterval,
            duration: SpeechScheduler.estimatedDuration(phrasebook))
    }

    public mutating func receive(_ event: TimedFeedbackEvent) {
        for utterance in scheduler.handle(event) { say(utterance) }
    }

    public mutating func finish(at time: Double) {
        for utterance in scheduler.finish() { say(utterance) }
    }

    private func say(_ utterance: Utterance) {
        output.speak(phrasebook.text(utterance.phrase), language: phrasebook.language)
    }
}
#endif
