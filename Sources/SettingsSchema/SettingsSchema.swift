/// The JSON form of a settings type whose every setting has a default: a file names only the
/// settings it changes, a name that is no setting is refused (a misspelt setting would
/// otherwise keep its default silently), and writing gives every setting.
///
/// A settings type lists its settings once, as fields, and decodes and encodes through them:
///
///     static var schema: SettingsSchema<Self> {
///         SettingsSchema([.field("markerCount", \.markerCount), .gate("legSwapMargin", \.legSwapMargin)])
///     }
///     init(from decoder: any Decoder) throws { self.init(); try Self.schema.decode(decoder, into: &self) }
public struct SettingsSchema<Settings> {
    /// One setting: its name in the file and how it is read and written.
    public struct Field {
        public let name: String
        let decode: (inout Settings, KeyedDecodingContainer<SettingKey>) throws -> Void
        let encode: (Settings, inout KeyedEncodingContainer<SettingKey>) throws -> Void

        /// A setting kept when absent.
        public static func field<Value: Codable>(_ name: String, _ path: WritableKeyPath<Settings, Value>) -> Field {
            Field(
                name: name,
                decode: { settings, c in
                    if let value = try c.decodeIfPresent(Value.self, forKey: SettingKey(name)) { settings[keyPath: path] = value }
                },
                encode: { settings, c in try c.encode(settings[keyPath: path], forKey: SettingKey(name)) })
        }

        /// A number that switches something off when `null`; kept when absent, written as
        /// `null` when off.
        public static func gate(_ name: String, _ path: WritableKeyPath<Settings, Double?>) -> Field {
            Field(
                name: name,
                decode: { settings, c in
                    let key = SettingKey(name)
                    guard c.contains(key) else { return }
                    settings[keyPath: path] = try c.decodeNil(forKey: key) ? nil : c.decode(Double.self, forKey: key)
                },
                encode: { settings, c in try c.encode(settings[keyPath: path], forKey: SettingKey(name)) })
        }
    }

    public let fields: [Field]
    /// Names a file may use besides the settings (a preset to start from, say).
    public let otherNames: [String]

    public init(_ fields: [Field], otherNames: [String] = []) {
        self.fields = fields
        self.otherNames = otherNames
    }

    /// The setting names in order, for help texts and error messages.
    public var names: [String] { fields.map(\.name) }

    /// The first name in the file that is no setting, in sorted order.
    public func unknownName(in decoder: any Decoder) throws -> String? {
        let known = Set(names + otherNames)
        return try decoder.container(keyedBy: SettingKey.self).allKeys.map(\.stringValue).filter { !known.contains($0) }.sorted().first
    }

    /// Reads the settings the file gives into `settings`, refusing a name that is no setting
    /// with `unknown(name)` as the message.
    public func decode(
        _ decoder: any Decoder, into settings: inout Settings,
        unknown: (String) -> String = { "unknown setting \"\($0)\"" }
    ) throws {
        try refuseUnknownNames(in: decoder, unknown: unknown)
        let c = try decoder.container(keyedBy: SettingKey.self)
        for field in fields { try field.decode(&settings, c) }
    }

    /// Throws `unknown(name)` for the first name in the file that is no setting.
    public func refuseUnknownNames(in decoder: any Decoder, unknown: (String) -> String) throws {
        if let name = try unknownName(in: decoder) {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath + [SettingKey(name)], debugDescription: unknown(name)))
        }
    }

    /// Writes every setting.
    public func encode(_ settings: Settings, to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: SettingKey.self)
        for field in fields { try field.encode(settings, &c) }
    }

    /// Reads one of `otherNames`, if given.
    public func decodeOther<Value: Decodable>(_ type: Value.Type, _ name: String, from decoder: any Decoder) throws -> Value? {
        try decoder.container(keyedBy: SettingKey.self).decodeIfPresent(type, forKey: SettingKey(name))
    }
}

/// A setting's name as a coding key.
public struct SettingKey: CodingKey, Sendable {
    public var stringValue: String
    public var intValue: Int? { nil }
    public init(_ name: String) { stringValue = name }
    public init?(stringValue: String) { self.stringValue = stringValue }
    public init?(intValue: Int) { nil }
}
