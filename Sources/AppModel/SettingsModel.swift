import Feedback
import Observation
import ScanLibrary

/// The settings screen: markers on the cap, progress increments, position audio, phrasing
/// and language, persisted on every change.
@MainActor @Observable
public final class SettingsModel {
    /// The settings in force.
    public private(set) var settings: FeedbackSettings
    /// Why loading or saving failed, if it did.
    public private(set) var problem: String?
    /// Called after every saved change, with the new settings.
    @ObservationIgnored public var onChange: (FeedbackSettings) -> Void = { _ in }

    @ObservationIgnored private let store: SettingsStore
    @ObservationIgnored private var strings: Strings

    /// The settings in `store`; unreadable ones fall back to the defaults with a message.
    public init(store: SettingsStore, strings: Strings) {
        self.store = store
        self.strings = strings
        do {
            settings = try store.load()
        } catch {
            settings = FeedbackSettings()
            problem = strings(.settingsLoadFailed, error.description)
        }
    }

    /// Markers on the cap (at least one).
    public var markerCount: Int {
        get { settings.markerCount }
        set { update { $0.markerCount = newValue } }
    }

    /// When progress is spoken.
    public var progressIncrement: ProgressIncrement {
        get { settings.progressIncrement }
        set { update { $0.progressIncrement = newValue } }
    }

    /// Directions or "too close" only.
    public var positionAudio: PositionAudio {
        get { settings.positionAudio }
        set { update { $0.positionAudio = newValue } }
    }

    /// Move-the-phone or head-in-picture wording.
    public var phrasing: Phrasing {
        get { settings.phrasing }
        set { update { $0.phrasing = newValue } }
    }

    /// Spoken and shown language.
    public var language: Language {
        get { settings.language }
        set {
            update { $0.language = newValue }
            if let s = try? Strings(language: settings.language) { strings = s }
        }
    }

    /// Puts every setting back to its default.
    public func resetToDefaults() { update { $0 = FeedbackSettings() } }

    /// The label of each option, for pickers.
    public func title(_ option: ProgressIncrement) -> String {
        switch option {
        case .every25: strings(.settingsEvery25)
        case .every50: strings(.settingsEvery50)
        case .only100: strings(.settingsOnly100)
        }
    }

    /// The label of a position audio mode.
    public func title(_ option: PositionAudio) -> String {
        option == .directions ? strings(.settingsDirections) : strings(.settingsTooCloseOnly)
    }

    /// The label of a phrasing.
    public func title(_ option: Phrasing) -> String {
        option == .movePhone ? strings(.settingsMovePhone) : strings(.settingsHeadInPicture)
    }

    /// The label of a language.
    public func title(_ option: Language) -> String {
        option == .de ? strings(.settingsGerman) : strings(.settingsEnglish)
    }

    /// The section titles: markers, progress audio, position audio, phrasing, language.
    public var sectionTitles: [String] {
        [.settingsMarkerCount, .settingsProgressAudio, .settingsPositionAudio, .settingsPhrasing, .settingsLanguage].map { strings($0) }
    }

    private func update(_ change: (inout FeedbackSettings) -> Void) {
        var next = settings
        change(&next)
        do {
            try store.save(next)
            settings = next
            problem = nil
            onChange(next)
        } catch {
            problem = strings(.settingsSaveFailed, error.description)
        }
    }
}
