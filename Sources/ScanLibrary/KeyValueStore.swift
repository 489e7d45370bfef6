import Foundation

/// A small persistent store of named JSON values: where the app keeps its settings.
public protocol KeyValueStore: Sendable {
    /// The value stored under `key`, nil when none is.
    func value(forKey key: String) throws(SettingsError) -> JSONValue?
    /// Stores `value` under `key` (nil removes it), persisting at once.
    func setValue(_ value: JSONValue?, forKey key: String) throws(SettingsError)
}

/// Why settings cannot be read or written.
public enum SettingsError: Error, Equatable, CustomStringConvertible {
    /// The settings file is not a JSON object.
    case corruptStore(path: String, reason: String)
    /// The settings file cannot be written.
    case unwritable(path: String, reason: String)
    /// A stored setting has a value of the wrong type or out of range.
    case invalidSetting(key: String, reason: String)

    public var description: String {
        switch self {
        case .corruptStore(let path, let reason):
            "the settings file \(path) cannot be read (\(reason)); fix it or delete it to return to the defaults"
        case .unwritable(let path, let reason):
            "cannot save the settings to \(path): \(reason)"
        case .invalidSetting(let key, let reason):
            "the setting \(key) is invalid: \(reason)"
        }
    }
}

/// Settings in one JSON object file (Linux, the command line): read on every access so that
/// two processes see each other's changes, written atomically.
public struct JSONFileKeyValueStore: KeyValueStore {
    /// The settings file.
    public let url: URL
    /// The file operations.
    public let fileSystem: any FileSystem

    /// A store in `url`; a missing file means every setting is at its default.
    public init(url: URL, fileSystem: any FileSystem = LiveFileSystem()) {
        self.url = url
        self.fileSystem = fileSystem
    }

    public func value(forKey key: String) throws(SettingsError) -> JSONValue? {
        try load()[key]
    }

    public func setValue(_ value: JSONValue?, forKey key: String) throws(SettingsError) {
        var all = try load()
        all[key] = value
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            try fileSystem.writeData(try encoder.encode(JSONValue.object(all)), to: url)
        } catch {
            throw .unwritable(path: url.path, reason: error.localizedDescription)
        }
    }

    private func load() throws(SettingsError) -> [String: JSONValue] {
        guard fileSystem.itemKind(at: url) != nil else { return [:] }
        do {
            guard case .object(let all) = try JSONDecoder().decode(JSONValue.self, from: fileSystem.readData(at: url)) else {
                throw SettingsError.corruptStore(path: url.path, reason: "not a JSON object")
            }
            return all
        } catch let error as SettingsError {
            throw error
        } catch {
            throw .corruptStore(path: url.path, reason: "not valid JSON")
        }
    }
}

/// A store kept only in memory: previews and tests.
public final class InMemoryKeyValueStore: KeyValueStore, @unchecked Sendable {
    // A lock guards the dictionary; the class is shared by reference like a real store.
    private let lock = NSLock()
    private var values: [String: JSONValue]

    /// A store holding `values`.
    public init(_ values: [String: JSONValue] = [:]) { self.values = values }

    public func value(forKey key: String) throws(SettingsError) -> JSONValue? {
        lock.withLock { values[key] }
    }

    public func setValue(_ value: JSONValue?, forKey key: String) throws(SettingsError) {
        lock.withLock { values[key] = value }
    }
}

#if canImport(Darwin)
/// Settings in UserDefaults (the app on iOS), each value as its JSON text.
public struct UserDefaultsKeyValueStore: KeyValueStore, @unchecked Sendable {
    // UserDefaults is thread-safe; it is not marked Sendable.
    private let defaults: UserDefaults

    /// A store in `defaults` (the standard ones unless a suite is given).
    public init(defaults: UserDefaults = .standard) { self.defaults = defaults }

    public func value(forKey key: String) throws(SettingsError) -> JSONValue? {
        guard let text = defaults.string(forKey: key) else { return nil }
        do {
            return try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        } catch {
            throw .invalidSetting(key: key, reason: "stored text is not JSON")
        }
    }

    public func setValue(_ value: JSONValue?, forKey key: String) throws(SettingsError) {
        guard let value else { return defaults.removeObject(forKey: key) }
        let data = (try? JSONEncoder().encode(value)) ?? Data("null".utf8)
        defaults.set(String(decoding: data, as: UTF8.self), forKey: key)
    }
}
#endif

// Apps show `localizedDescription`; without this they would show a generic sentence instead
// of the message that says what to do.
extension SettingsError: LocalizedError {
    public var errorDescription: String? { description }
}
