import Feedback
import Foundation

/// The user-facing texts in one language, from `Strings/<language>.json` in this module's
/// resources; `{0}`, `{1}` … are replaced by the arguments.
public struct Strings: Sendable {
    /// The language of the texts.
    public let language: Language
    private let table: [String: String]

    /// The texts in `language`, from `bundle` (this module's resources unless given).
    public init(language: Language, bundle: Bundle? = nil) throws(StringsError) {
        self.language = language
        table = try Self.table(language, bundle: bundle)
    }

    /// The raw table for `language`: key to text, from `bundle` or this module's resources.
    public static func table(_ language: Language, bundle: Bundle? = nil) throws(StringsError) -> [String: String] {
        let bundle = bundle ?? .module
        guard
            let url = bundle.url(forResource: language.rawValue, withExtension: "json", subdirectory: "Strings")
                ?? bundle.url(forResource: language.rawValue, withExtension: "json")
        else { throw .missingTable(language.rawValue) }
        do {
            return try JSONDecoder().decode([String: String].self, from: Data(contentsOf: url))
        } catch {
            throw .unreadableTable(language.rawValue, "\(error)")
        }
    }

    /// The text for `key` with its placeholders filled in.
    public func callAsFunction(_ key: StringKey, _ arguments: String...) -> String {
        // A missing entry shows its key, visible in use; a test checks that none is missing.
        var text = table[key.rawValue] ?? key.rawValue
        for (index, argument) in arguments.enumerated() {
            text = text.replacingOccurrences(of: "{\(index)}", with: argument)
        }
        return text
    }

    /// A day in the language's style: 14.03.2026 in German, 2026-03-14 in English.
    public func date(_ date: Date, timeZone: TimeZone = .current) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = language == .de ? "dd.MM.yyyy" : "yyyy-MM-dd"
        return formatter.string(from: date)
    }

    /// A number with one decimal in the language's style (comma in German).
    public func decimal(_ value: Double, digits: Int = 1) -> String {
        let text = String(format: "%.\(digits)f", value)
        return language == .de ? text.replacingOccurrences(of: ".", with: ",") : text
    }
}

/// Why the string tables cannot be loaded: the app's resources are broken.
public enum StringsError: Error, Equatable, CustomStringConvertible {
    case missingTable(String)
    case unreadableTable(String, String)

    public var description: String {
        switch self {
        case .missingTable(let language): "the strings table \(language).json is missing from the app's resources"
        case .unreadableTable(let language, let why): "the strings table \(language).json cannot be read: \(why)"
        }
    }
}

// Apps show `localizedDescription`; without this they would show a generic sentence instead
// of the message that says what to do.
extension StringsError: LocalizedError {
    public var errorDescription: String? { description }
}
