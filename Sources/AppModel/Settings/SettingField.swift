import AppSupport
import Feedback
import Foundation

/// How a setting is edited.
public enum SettingKind: Sendable, Equatable {
    /// A whole number typed in.
    case wholeNumber
    /// A decimal typed in, with a comma or a point.
    case decimal
    /// On or off.
    case toggle
    /// One of these values (the settings file's names, in order).
    case choice([String])
}

/// A part of the settings screen.
public enum SettingsSection: String, Sendable, CaseIterable, Identifiable {
    case announcements, cap, position, completion

    public var id: String { rawValue }

    /// The settings each section shows, by key. A key listed nowhere is shown in the last
    /// section, so a setting added to the guide is never hidden from the screen.
    static let keys: [SettingsSection: [String]] = [
        .announcements: ["progressIncrement", "positionAudio", "phrasing", "language", "sameInstructionInterval", "instructionRepeatInterval"],
        .cap: ["withoutMarkers", "markerCount", "markerSide"],
        .position: ["debounceFrames", "invalidDepthRatio", "centerBand", "minSharedMarkers", "directionMemory", "tooCloseDistance"],
        .completion: [
            "regionCoverage", "stallSeconds", "regionGuidance", "requireEarsAndFace", "faceReach", "earReach", "featureMinMarkers",
            "reminderInterval", "surfaceCoverage", "viewAngle",
        ],
    ]
}

/// One setting of the scan guide on the settings screen; every field of `FeedbackSettings`
/// has one.
public struct SettingField: Sendable, Equatable, Identifiable {
    public var id: String { key }
    /// The setting's name in settings files (`debounceFrames`).
    public var key: String
    /// How it is edited.
    public var kind: SettingKind
    /// Its name on screen.
    public var title: String
    /// What it does, its default and what is allowed.
    public var detail: String
}

extension SettingField {
    /// Every setting's key and kind in declaration order, read off the settings type itself
    /// (its documented defaults give the choices), so nothing here can fall behind it.
    static let kinds: [(key: String, kind: SettingKind)] = {
        let documented = Dictionary(FeedbackSettings.documentedDefaults.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
        return Mirror(reflecting: FeedbackSettings()).children.compactMap { child in
            guard let key = child.label else { return nil }
            switch child.value {
            case is Int: return (key, .wholeNumber)
            case is Double: return (key, .decimal)
            case is Bool: return (key, .toggle)
            default:
                let options = (documented[key] ?? "").components(separatedBy: " | ").filter { !$0.isEmpty }
                return (key, .choice(options))
            }
        }
    }()

    /// The string keys of a setting's title and description: `settingsField…` and `settingsHelp…`.
    static func stringKeys(of key: String) -> (title: StringKey?, help: StringKey?) {
        let name = key.prefix(1).uppercased() + key.dropFirst()
        return (StringKey(rawValue: "settingsField" + name), StringKey(rawValue: "settingsHelp" + name))
    }
}

extension Strings {
    /// A number as the settings screen shows it: no trailing ".0", a comma in German.
    func settingNumber(_ value: Double) -> String {
        let text = value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
        return language == .de ? text.replacingOccurrences(of: ".", with: ",") : text
    }

    /// A limit in words, to follow "must be" and "allowed:".
    func limitText(_ limit: SettingLimit) -> String {
        switch limit {
        case .atLeast(let lower): self(.settingsLimitAtLeast, settingNumber(lower))
        case .positive: self(.settingsLimitPositive)
        case .nonNegative: self(.settingsLimitNonNegative)
        case .within(let range): self(.settingsLimitWithin, settingNumber(range.lowerBound), settingNumber(range.upperBound))
        case .from(let lower, let upper): self(.settingsLimitFromBelow, settingNumber(lower), settingNumber(upper))
        case .above(let lower, let upper): self(.settingsLimitAboveUpTo, settingNumber(lower), settingNumber(upper))
        }
    }
}
