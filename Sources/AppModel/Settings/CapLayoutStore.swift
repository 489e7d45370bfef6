import Foundation
import Markers
import ScanLibrary

/// The cap layout the app records with, kept in the settings' key-value store next to the
/// feedback settings; nothing stored means the standard cap.
public struct CapLayoutStore: Sendable {
    /// The key the layout is stored under, as a JSON object (the layout file's content).
    public static let key = "capLayout"
    /// Where it lives.
    public let store: any KeyValueStore

    /// Layouts in `store`.
    public init(store: any KeyValueStore) { self.store = store }

    /// The stored layout, validated; the standard cap when none is stored.
    public func load() throws -> CapLayout {
        guard let value = try store.value(forKey: Self.key) else { return .standard }
        return try CapLayout.decode(json: Array(try JSONEncoder().encode(value)))
    }

    /// Stores `layout`; the standard cap is stored as nothing, so a later build's standard
    /// cap applies.
    public func save(_ layout: CapLayout) throws {
        guard layout != .standard else { return try store.setValue(nil, forKey: Self.key) }
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(try layout.encodedJSON()))
        try store.setValue(value, forKey: Self.key)
    }
}
