import Foundation

/// The name of a session folder, `[ID]_[yyyy-MM-dd'T'HH-mm-ss]_Scan`.
///
/// The ID is the patient ID once patient data was saved, a temporary `new` before, or what
/// a user renamed it to (letters, digits and `-`: a patient's name, say).
public struct SessionName: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The ID part.
    public let id: String
    /// The date part, `yyyy-MM-dd'T'HH-mm-ss`.
    public let timestamp: String

    /// The ID of a session whose patient data was not saved yet.
    public static let temporaryID = "new"
    /// Longest name accepted, in UTF-8 bytes; file systems allow 255, archives and sync
    /// tools less.
    public static let maximumBytes = 120
    /// Suffix of every session name.
    public static let suffix = "Scan"

    /// The folder name.
    public var rawValue: String { "\(id)_\(timestamp)_\(Self.suffix)" }
    public var description: String { rawValue }

    /// Whether no patient ID was given yet.
    public var isTemporary: Bool { id == Self.temporaryID || id.hasPrefix(Self.temporaryID + "-") }

    /// The patient ID when the ID part is a whole number.
    public var patientID: Int? { Int(id).flatMap { $0 > 0 && String($0) == id ? $0 : nil } }

    /// A name from its parts, checked like a typed one.
    public init(id: String, timestamp: String) throws(ScanLibraryError) {
        try self.init(parsing: "\(id)_\(timestamp)_\(Self.suffix)")
    }

    /// A name with `date` formatted in `timeZone`.
    public init(id: String, date: Date, timeZone: TimeZone) throws(ScanLibraryError) {
        try self.init(id: id, timestamp: Self.timestamp(for: date, in: timeZone))
    }

    /// Checks a typed or listed name; Unicode is compared in its composed (NFC) form.
    public init(parsing text: String) throws(ScanLibraryError) {
        let name = text.precomposedStringWithCanonicalMapping
        func fail(_ problem: NameProblem) -> ScanLibraryError { .invalidName(name: text, reason: problem) }
        guard !name.isEmpty else { throw fail(.empty) }
        guard name.utf8.count <= Self.maximumBytes else { throw fail(.tooLong(limit: Self.maximumBytes)) }
        guard !name.contains(where: { "/\\:".contains($0) }) else { throw fail(.pathSeparator) }
        guard !name.contains(".."), !name.hasPrefix(".") else { throw fail(.pathTraversal) }
        let parts = name.split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[2] == Self.suffix else {
            if let bad = name.unicodeScalars.first(where: { !Self.isAllowed($0) && $0 != "_" }) {
                throw fail(.forbiddenCharacter(Self.describe(bad)))
            }
            throw fail(.wrongShape)
        }
        guard !parts[0].isEmpty else { throw fail(.emptyID) }
        if let bad = parts[0].unicodeScalars.first(where: { !Self.isAllowed($0) }) {
            throw fail(.forbiddenCharacter(Self.describe(bad)))
        }
        guard Self.isValidTimestamp(String(parts[1])) else { throw fail(.badDate(String(parts[1]))) }
        id = String(parts[0])
        timestamp = String(parts[1])
    }

    /// Letters (any script, with their accents), ASCII digits and `-`: nothing that a file
    /// system, a shell or a sync tool treats specially, and nothing invisible.
    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == "-" || ("0"..."9").contains(scalar) { return true }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .otherLetter, .modifierLetter,
            .nonspacingMark, .spacingMark:
            return true
        default:
            return false
        }
    }

    private static func describe(_ scalar: Unicode.Scalar) -> String {
        let code = "U+" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
        let visible =
            scalar.properties.generalCategory != .control && scalar.properties.generalCategory != .format
            && !scalar.properties.isWhitespace
        return visible ? "\"\(scalar)\" (\(code))" : code
    }

    /// The session date part for `date` in `timeZone`.
    public static func timestamp(for date: Date, in timeZone: TimeZone) -> String {
        formatter(timeZone).string(from: date)
    }

    /// The date of the session in `timeZone`.
    public func date(in timeZone: TimeZone) -> Date? { Self.formatter(timeZone).date(from: timestamp) }

    private static func isValidTimestamp(_ text: String) -> Bool {
        let utc = TimeZone(identifier: "UTC")!
        guard text.utf8.count == 19, let date = formatter(utc).date(from: text) else { return false }
        // Round-tripping rejects dates the parser bends into range, such as 2024-02-30.
        return formatter(utc).string(from: date) == text
    }

    private static func formatter(_ timeZone: TimeZone) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.timeZone = timeZone
        formatter.dateFormat = "yyyy-MM-dd'T'HH-mm-ss"
        return formatter
    }

    /// Names that differ only in case or Unicode form collide on case-insensitive volumes
    /// (APFS default), so they count as the same.
    public var collisionKey: String { rawValue.lowercased() }

    public static func < (a: SessionName, b: SessionName) -> Bool {
        (a.timestamp, a.id) < (b.timestamp, b.id)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
