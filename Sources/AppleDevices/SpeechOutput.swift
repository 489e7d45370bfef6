#if os(iOS)
import AVFoundation
import Feedback
import Foundation

/// Speaks phrases with `AVSpeechSynthesizer` in German or English, also in silent mode.
///
/// The audio session is `.playback` with the `.spokenAudio` mode (other audio ducks). An
/// interruption (a call) pauses speech; when it ends the session is activated again and
/// speech goes on where the system allows it.
///
/// During a scan the guide's phrases go through a `LiveSpeechQueue` on one serial queue: one
/// phrase is handed to the synthesizer at a time, and the next when the synthesizer reports
/// that it finished, so milestones and "done" come as soon as the voice is free and never pile
/// up. Pausing keeps the milestones, stopping cuts a stale instruction, and once the scan has
/// stopped and the last milestone is said the audio session is released.
public final class SpeechOutput: NSObject, AVSpeechSynthesizerDelegate, @unchecked Sendable {
    private let synthesizer = AVSpeechSynthesizer()
    private var observer: NSObjectProtocol?
    /// Everything below is touched on `queue` only.
    private let queue = DispatchQueue(label: "HeadScan.SpeechOutput")
    private var scan = LiveSpeechQueue()
    private var phrasebook = Phrasebook(language: .de)
    /// The scan clock's offset from the system's uptime, so that the synthesizer's callbacks
    /// can be timed on the scan's clock.
    private var clockOffset = 0.0
    private var scanStopped = true

    /// A speech output; `activate()` prepares the audio session.
    override public init() {
        super.init()
        synthesizer.delegate = self
        observer = NotificationCenter.default.addObserver(
            forName: AVAudioSession.interruptionNotification, object: AVAudioSession.sharedInstance(), queue: nil
        ) { [weak self] note in
            self?.interrupted(note)
        }
    }

    deinit {
        if let observer { NotificationCenter.default.removeObserver(observer) }
    }

    /// A scan starts: the guide's phrases are said in `settings`' language from now on.
    public func beginScan(settings: FeedbackSettings) {
        activate()
        queue.async { [self] in
            scan = LiveSpeechQueue(sameInstructionInterval: settings.sameInstructionInterval)
            phrasebook = Phrasebook(language: settings.language)
            scanStopped = false
        }
    }

    /// One of the guide's events.
    public func guide(_ event: TimedFeedbackEvent) {
        queue.async { [self] in
            clockOffset = ProcessInfo.processInfo.systemUptime - event.time
            perform(scan.handle(event))
        }
    }

    /// The scan paused: what is being said ends, instructions are dropped, milestones kept.
    public func pauseScan() {
        queue.async { [self] in scan.pause() }
    }

    /// The scan resumed.
    public func resumeScan() {
        queue.async { [self] in perform(scan.resume(at: scanTime)) }
    }

    /// The scan stopped: a stale instruction is cut; queued milestones are still said, then
    /// the audio session is released.
    public func stopScan() {
        queue.async { [self] in
            scanStopped = true
            perform(scan.stop())
            releaseIfIdle()
        }
    }

    public func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didFinish utterance: AVSpeechUtterance) {
        voiceFinished()
    }

    public func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didCancel utterance: AVSpeechUtterance) {
        voiceFinished()
    }

    private func voiceFinished() {
        queue.async { [self] in
            perform(scan.finished(at: scanTime))
            releaseIfIdle()
        }
    }

    private var scanTime: Double { ProcessInfo.processInfo.systemUptime - clockOffset }

    private func perform(_ action: LiveSpeechQueue.Action?) {
        switch action {
        case .say(let phrase, _)?: speak(phrasebook.text(phrase), language: phrasebook.language)
        case .silence?: synthesizer.stopSpeaking(at: .immediate)
        case nil: break
        }
    }

    private func releaseIfIdle() {
        guard scanStopped, scan.speaking == nil else { return }
        deactivate()
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
            let options =
                (note.userInfo?[AVAudioSessionInterruptionOptionKey] as? UInt)
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

/// The guide's speech events on the phone, said through `output`'s live queue.
public struct LiveSpeechSink: FeedbackSink {
    private let output: SpeechOutput

    /// A sink speaking through `output`, which `beginScan` has prepared.
    public init(output: SpeechOutput) { self.output = output }

    public mutating func receive(_ event: TimedFeedbackEvent) { output.guide(event) }

    public mutating func finish(at time: Double) { output.stopScan() }
}
#endif
