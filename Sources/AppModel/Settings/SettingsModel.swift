import Feedback
import Foundation
import Observation
import ScanLibrary

/// The settings screen: every threshold of the scan guide, validated field by field against
/// the guide's own limits and persisted on every accepted change.
@MainActor @Observable
public final class SettingsModel {
    /// The settings in force.
    public private(set) var settings: FeedbackSettings
    /// Why loading or saving failed, if it did.
    public private(set) var problem: String?
    /// Called after every saved change, with the new settings.
    @ObservationIgnored public var onChange: (FeedbackSettings) -> Void = { _ in }

    /// Text typed into number fields, by key, shown as typed ("0," on the way to "0,05")
    /// until editing ends or the values change from elsewhere.
    private var drafts: [String: String] = [:]
    /// Why a typed number was refused, by key.
    private var problems: [String: String] = [:]
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

    // MARK: - The typed settings the pickers bind to

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
        set { update { $0.language = newValue } }
    }

    /// Puts every setting back to its default.
    public func resetToDefaults() {
        clearTyping()
        update { $0 = FeedbackSettings() }
    }

    // MARK: - Every setting, by key

    /// The screen's sections, in order.
    public var sections: [SettingsSection] { SettingsSection.allCases }

    /// A section's title.
    public func title(_ section: SettingsSection) -> String {
        switch section {
        case .announcements: strings(.settingsSectionAnnouncements)
        case .cap: strings(.settingsSectionCap)
        case .position: strings(.settingsSectionPosition)
        case .completion: strings(.settingsSectionCompletion)
        }
    }

    /// Every setting of the scan guide, in the settings type's order.
    public var fields: [SettingField] {
        SettingField.kinds.map { key, kind in
            let names = SettingField.stringKeys(of: key)
            return SettingField(
                key: key, kind: kind, title: names.title.map { strings($0) } ?? key,
                detail: [names.help.map { strings($0) }, defaultLine(key, kind)].compactMap { $0 }.joined(separator: " "))
        }
    }

    /// The settings a section shows; keys no section lists are shown in the last one.
    public func fields(in section: SettingsSection) -> [SettingField] {
        let listed = Set(SettingsSection.keys.values.joined())
        return fields.filter { field in
            SettingsSection.keys[section]?.contains(field.key) == true
                || (section == SettingsSection.allCases.last && !listed.contains(field.key))
        }
    }

    /// What a number field shows: the text being typed, else the value in force.
    public func text(_ key: String) -> String {
        if let draft = drafts[key] { return draft }
        return settings.numericValues[key].map(strings.settingNumber) ?? ""
    }

    /// Why the text typed into a number field was not saved, nil when it was.
    public func problem(_ key: String) -> String? { problems[key] }

    /// Takes what is typed into a number field: saved when it is a number within the
    /// setting's limit, else kept on screen with the reason and the setting unchanged.
    public func setText(_ text: String, for key: String) {
        guard let kind = SettingField.kinds.first(where: { $0.key == key })?.kind, kind == .wholeNumber || kind == .decimal else { return }
        drafts[key] = text
        switch parse(text, kind: kind, key: key) {
        case .failure(let why):
            problems[key] = why.message
        case .success(let value):
            if let limit = FeedbackSettings.limit(of: key), !limit.contains(value.number) {
                problems[key] = strings(.settingsOutOfRange, strings.limitText(limit))
                return
            }
            problems[key] = nil
            _ = set(value, for: key)
        }
    }

    /// Editing a number field ended: it shows the value in force again, and a refused text
    /// with its reason goes.
    public func endEditing(_ key: String) {
        drafts[key] = nil
        problems[key] = nil
    }

    /// Whether a switch is on.
    public func isOn(_ key: String) -> Bool { settings.headerEntries[key] == "true" }

    /// Turns a switch on or off.
    public func setOn(_ on: Bool, for key: String) {
        guard SettingField.kinds.first(where: { $0.key == key })?.kind == .toggle else { return }
        _ = set(.bool(on), for: key)
    }

    /// The chosen option of a choice (its name in settings files).
    public func choice(_ key: String) -> String { settings.headerEntries[key] ?? "" }

    /// Chooses an option.
    public func setChoice(_ option: String, for key: String) {
        guard case .choice(let options)? = SettingField.kinds.first(where: { $0.key == key })?.kind, options.contains(option) else { return }
        _ = set(.string(option), for: key)
    }

    /// An option's label.
    public func optionTitle(_ option: String, for key: String) -> String {
        switch key {
        case "progressIncrement": ProgressIncrement(rawValue: option).map(title) ?? option
        case "positionAudio": PositionAudio(rawValue: option).map(title) ?? option
        case "phrasing": Phrasing(rawValue: option).map(title) ?? option
        case "language": Language(rawValue: option).map(title) ?? option
        default: option
        }
    }

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

    // MARK: - Saving

    private func clearTyping() {
        drafts = [:]
        problems = [:]
    }

    private func defaultLine(_ key: String, _ kind: SettingKind) -> String? {
        let defaults = FeedbackSettings()
        let value: String
        switch kind {
        case .wholeNumber, .decimal: value = defaults.numericValues[key].map(strings.settingNumber) ?? ""
        case .toggle: value = defaults.headerEntries[key] == "true" ? strings(.settingsOn) : strings(.settingsOff)
        case .choice: value = optionTitle(defaults.headerEntries[key] ?? "", for: key)
        }
        guard let limit = FeedbackSettings.limit(of: key) else { return strings(.settingsDefault, value) }
        return strings(.settingsDefaultAllowed, value, strings.limitText(limit))
    }

    /// A typed number, or why it is none.
    private func parse(_ text: String, kind: SettingKind, key: String) -> Result<JSONValue, SettingParseError> {
        let example = FeedbackSettings().numericValues[key].map(strings.settingNumber) ?? "1"
        let t = text.trimmingCharacters(in: .whitespaces)
        if kind == .wholeNumber {
            let digits = t.hasPrefix("-") ? t.dropFirst() : Substring(t)
            guard !digits.isEmpty, digits.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }), let n = Int(t) else {
                return .failure(SettingParseError(strings(.settingsNotWholeNumber, example)))
            }
            return .success(.number(Double(n)))
        }
        let normalised = t.replacingOccurrences(of: ",", with: ".")
        let allowed = normalised.unicodeScalars.allSatisfy { ("0"..."9").contains($0) || $0 == "." || $0 == "-" }
        guard allowed, normalised.filter({ $0 == "." }).count <= 1, let value = Double(normalised), value.isFinite else {
            return .failure(SettingParseError(strings(.settingsNotANumber, example)))
        }
        return .success(.number(value))
    }

    /// Sets one setting by key through the settings' own coding, then validates and saves.
    private func set(_ value: JSONValue, for key: String) -> Bool {
        guard let data = try? JSONEncoder().encode(settings),
            case .object(var object)? = try? JSONDecoder().decode(JSONValue.self, from: data)
        else { return false }
        object[key] = value
        guard let encoded = try? JSONEncoder().encode(JSONValue.object(object)),
            let next = try? JSONDecoder().decode(FeedbackSettings.self, from: encoded)
        else { return false }
        return update { $0 = next }
    }

    @discardableResult
    private func update(_ change: (inout FeedbackSettings) -> Void) -> Bool {
        var next = settings
        change(&next)
        do {
            try store.save(next)
        } catch {
            problem = strings(.settingsSaveFailed, error.description)
            return false
        }
        let languageChanged = next.language != settings.language
        settings = next
        problem = nil
        if languageChanged, let s = try? Strings(language: next.language) { strings = s }
        onChange(next)
        return true
    }
}

/// Why typed text is not a number, in the user's language.
private struct SettingParseError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

extension JSONValue {
    fileprivate var number: Double {
        if case .number(let n) = self { return n }
        return .nan
    }
}
