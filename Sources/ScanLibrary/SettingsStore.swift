import Feedback
import Foundation

/// The feedback settings persisted in a key-value store, one key per setting under the
/// setting's Codable name (`markerCount`, `progressIncrement`, …); absent keys keep their
/// defaults.
public struct SettingsStore: Sendable {
    /// Where the values live.
    public let store: any KeyValueStore

    /// Settings in `store`.
    public init(store: any KeyValueStore) { self.store = store }

    /// The stored settings over the defaults; a bad value is an error naming its key.
    public func load() throws(SettingsError) -> FeedbackSettings {
        var object: [String: JSONValue] = [:]
        for key in FeedbackSettings.keys {
            if let value = try store.value(forKey: key) { object[key] = value }
        }
        let settings: FeedbackSettings
        do {
            settings = try JSONDecoder().decode(FeedbackSettings.self, from: JSONEncoder().encode(JSONValue.object(object)))
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.dataCorrupted(context) {
            throw .invalidSetting(key: context.codingPath.first?.stringValue ?? "?", reason: "wrong type or unknown value")
        } catch {
            throw .invalidSetting(key: "?", reason: "\(error)")
        }
        do {
            try settings.validate()
        } catch {
            throw .invalidSetting(key: Self.key(of: error), reason: error.description)
        }
        return settings
    }

    /// Validates and stores every setting that differs from what is stored.
    public func save(_ settings: FeedbackSettings) throws(SettingsError) {
        do {
            try settings.validate()
        } catch {
            throw .invalidSetting(key: Self.key(of: error), reason: error.description)
        }
        guard let data = try? JSONEncoder().encode(settings),
            case .object(let object)? = try? JSONDecoder().decode(JSONValue.self, from: data)
        else { return }
        for key in FeedbackSettings.keys {
            let value = object[key]
            if try store.value(forKey: key) != value { try store.setValue(value, forKey: key) }
        }
    }

    private static func key(of error: FeedbackError) -> String {
        if case .invalidSetting(let name, _) = error { return name }
        return "?"
    }
}
