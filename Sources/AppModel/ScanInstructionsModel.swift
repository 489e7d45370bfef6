import AppSupport
import Feedback
import Observation

/// A kind of feedback the scan guide gives.
public enum FeedbackKind: String, Sendable, CaseIterable {
    case vibration, tooClose, direction, noHead, progress, done, doneMissing, regionMissing, capture, capTooHigh, goBack
}

/// One entry of the instructions: what the feedback means and what to do.
public struct InstructionEntry: Sendable, Equatable, Identifiable {
    /// The feedback kind.
    public var id: FeedbackKind
    /// What the feedback is ("Continuous vibration").
    public var title: String
    /// What to do when it comes.
    public var action: String
    /// Details.
    public var description: String
    /// The demo button's label.
    public var demoTitle: String
}

/// The scan instructions: one entry per feedback type, each with a demo.
@MainActor @Observable
public final class ScanInstructionsModel {
    /// The entries, in the order the feedback matters while scanning.
    public let entries: [InstructionEntry]
    @ObservationIgnored private let player: any FeedbackPlayer
    @ObservationIgnored private let settings: FeedbackSettings
    @ObservationIgnored private let strings: Strings

    /// Instructions for the current settings (phrasing and language of the demos).
    public init(settings: FeedbackSettings, player: any FeedbackPlayer, strings: Strings) {
        self.settings = settings
        self.player = player
        self.strings = strings
        entries = FeedbackKind.allCases.map { Self.entry($0, strings) }
    }

    /// Plays the feedback of `kind`: the vibration, or the utterance in the settings' language.
    public func playDemo(_ kind: FeedbackKind) {
        guard let phrase = demoPhrase(kind) else { return player.playVibration() }
        player.speak(Phrasebook(language: settings.language).text(phrase), language: settings.language)
    }

    /// The utterance demonstrated for `kind`; nil for the vibration.
    public func demoPhrase(_ kind: FeedbackKind) -> Phrase? {
        switch kind {
        case .vibration: nil
        case .tooClose: .tooClose
        case .direction: settings.phrasing == .movePhone ? .movePhone(.left) : .headInPicture(Direction.left.opposite)
        case .noHead: .noHead
        case .progress: .percent(settings.progressIncrement == .every25 ? 25 : 50)
        case .done: .done
        case .doneMissing: .doneMissing(3)
        case .regionMissing: .regionMissing(.back)
        case .capture: .capture([.leftEar, .face])
        case .capTooHigh: .capTooHigh
        case .goBack: .goBack
        }
    }

    private static func entry(_ kind: FeedbackKind, _ s: Strings) -> InstructionEntry {
        let keys: (StringKey, StringKey, StringKey) =
            switch kind {
            case .vibration: (.instrVibrationTitle, .instrVibrationAction, .instrVibrationText)
            case .tooClose: (.instrTooCloseTitle, .instrTooCloseAction, .instrTooCloseText)
            case .direction: (.instrDirectionTitle, .instrDirectionAction, .instrDirectionText)
            case .noHead: (.instrNoHeadTitle, .instrNoHeadAction, .instrNoHeadText)
            case .progress: (.instrProgressTitle, .instrProgressAction, .instrProgressText)
            case .done: (.instrDoneTitle, .instrDoneAction, .instrDoneText)
            case .doneMissing: (.instrDoneMissingTitle, .instrDoneMissingAction, .instrDoneMissingText)
            case .regionMissing: (.instrRegionTitle, .instrRegionAction, .instrRegionText)
            case .capture: (.instrCaptureTitle, .instrCaptureAction, .instrCaptureText)
            case .capTooHigh: (.instrCapTooHighTitle, .instrCapTooHighAction, .instrCapTooHighText)
            case .goBack: (.instrGoBackTitle, .instrGoBackAction, .instrGoBackText)
            }
        let demo = kind == .vibration ? s(.instrDemoVibration) : s(.instrDemoSpeech)
        return InstructionEntry(id: kind, title: s(keys.0), action: s(keys.1), description: s(keys.2), demoTitle: demo)
    }
}
