/// The settings part of a command's help, generated from the settings type: every key with
/// its default, read from a default instance, and what it does.
enum SettingsHelp {
    /// "key (default): what it does; …" in the order of `keys`. Optional settings that are
    /// off by default show "off"; enumerations show `choices` with the default first.
    static func list(defaults: Any, keys: [String], explanations: [String: String], choices: [String: [String]] = [:]) -> String {
        let values = Dictionary(
            uniqueKeysWithValues: Mirror(reflecting: defaults).children.compactMap { child in
                child.label.map { ($0, describe(child.value)) }
            })
        return keys.map { key in
            let value = choices[key].map { $0.joined(separator: " | ") } ?? values[key] ?? "?"
            return explanations[key].map { "\(key) (\(value)): \($0)" } ?? "\(key) (\(value))"
        }.joined(separator: "; ")
    }

    private static func describe(_ value: Any) -> String {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return "\(value)" }
        return mirror.children.first.map { "\($0.value)" } ?? "off"
    }
}
