import AppSupport
import Feedback
import Foundation
import Markers
import Observation
import ScanLibrary

/// The settings screen: every threshold of the scan guide, validated field by field against
/// the guide's own limits and persisted on every accepted change, and the cap layout scans
/// are recorded with.
@MainActor @Observable
public final class SettingsModel {
    /// The settings in force.
    public private(set) var settings: FeedbackSettings
    /// Why loading or saving failed, if it did.
    public private(set) var problem: String?
    /// The cap scans are recorded with.
    public private(set) var capLayout: CapLayout
    /// The outcome of the last cap import or reset: what is in use now, or why a file was refused.
    public private(set) var capMessage: String?
    /// Whether `capMessage` reports a refused file.
    public private(set) var capMessageIsProblem = false
    /// Called after every saved change, with the new settings.
    @ObservationIgnored public var onChange: (FeedbackSettings) -> Void = { _ in }
    /// Called after the cap layout changed, with the new one.
    @ObservationIgnored public var onCapLayoutChange: (CapLayout) -> Void = { _ in }

    /// Text typed into number fields, by key, shown as typed ("0," on the way to "0,05")
    /// until editing ends or the values change from elsewhere.
    private var drafts: [String: String] = [:]
    /// Why a typed number was refused, by key.
    private var problems: [String: String] = [:]
    @ObservationIgnored private let store: SettingsStore
    @ObservationIgnored private let caps: CapLayoutStore
    @ObservationIgnored private var strings: Strings

    /// The settings and cap in `store`; unreadable ones fall back to the defaults (and the
    /// standard cap) with a message.
    public init(store: SettingsStore, strings: Strings) {
        self.store = store
        caps = CapLayoutStore(store: store.store)
        self.strings = strings
        do {
            settings = try store.load()
        } catch {
            settings = FeedbackSettings()
            problem = strings(.settingsLoadFailed, error.description)
        }
        do {
            capLayout = try caps.load()
        } catch {
            capLayout = .standard
            capMessage = strings(.settingsCapLoadFailed, error.localizedDescription)
            capMessageIsProblem = true
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

    /// Puts every setting back to its default; the marker count and side stay those of the
    /// cap in use, since the defaults describe the standard cap.
    public func resetToDefaults() {
        let layout = capLayout
        clearTyping()
        update {
            $0 = FeedbackSettings()
            Self.fit(&$0, to: layout)
        }
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

    // MARK: - The cap layout

    /// The cap in use in one line: name, markers, size and dictionary.
    public var capSummary: String {
        strings(
            .settingsCapInUse, capLayout.name, String(capLayout.markers.count), strings.settingNumber(capLayout.markerSideMillimetres),
            capLayout.dictionaryName)
    }

    /// Whether the standard cap is in use (resetting to it is then offered no more).
    public var usesStandardCap: Bool { capLayout == .standard }

    /// Reads a cap layout file (what `headscan markers cap --json` prints) and, when it is
    /// valid, records scans with it from now on; a bad file changes nothing and says why.
    public func importCapLayout(contentsOf url: URL) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            return refuseCap(strings(.settingsCapUnreadable, url.lastPathComponent, error.localizedDescription))
        }
        importCapLayout(json: Array(data), fileName: url.lastPathComponent)
    }

    /// Takes the content of a cap layout file named `fileName`.
    public func importCapLayout(json: [UInt8], fileName: String) {
        let layout: CapLayout
        do {
            layout = try CapLayout.decode(json: json)
        } catch {
            let why = if case .invalidLayout(let reason) = error { reason } else { error.description }
            return refuseCap(strings(.settingsCapInvalid, fileName, why, capLayout.name))
        }
        useCap(layout, message: strings(.settingsCapImported, layout.name))
    }

    /// Back to the standard cap.
    public func useStandardCap() {
        useCap(.standard, message: strings(.settingsCapImported, CapLayout.standard.name))
    }

    // MARK: - Saving

    private func useCap(_ layout: CapLayout, message: String) {
        do {
            try caps.save(layout)
        } catch {
            return refuseCap(strings(.settingsSaveFailed, error.localizedDescription))
        }
        capLayout = layout
        capMessage = message
        capMessageIsProblem = false
        clearTyping()
        // Progress counts the cap's markers, and the ear and face rule measures with its size.
        update { Self.fit(&$0, to: layout) }
        onCapLayoutChange(layout)
    }

    private func clearTyping() {
        drafts = [:]
        problems = [:]
    }

    private func refuseCap(_ message: String) {
        capMessage = message
        capMessageIsProblem = true
    }

    private static func fit(_ settings: inout FeedbackSettings, to layout: CapLayout) {
        settings.markerCount = layout.markers.count
        settings.markerSide = layout.markerSide
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
