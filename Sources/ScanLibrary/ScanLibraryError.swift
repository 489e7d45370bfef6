import Foundation

/// Why a library operation failed, in words that say what to do; nothing was changed.
public enum ScanLibraryError: Error, Equatable, CustomStringConvertible {
    /// The library folder cannot be read or created.
    case unreadableLibrary(path: String, reason: String)
    /// No session of that name exists.
    case sessionNotFound(String)
    /// A new name does not have the form `[ID]_[yyyy-MM-dd'T'HH-mm-ss]_Scan`.
    case invalidName(name: String, reason: NameProblem)
    /// Another session already has this name.
    case nameTaken(String)
    /// The new name is the current one.
    case sameName(String)
    /// A patient ID must be a positive integer.
    case invalidPatientID(Int)
    /// A JSON document of a session cannot be read.
    case corruptDocument(session: String, file: String, reason: String)
    /// A JSON document was written by a newer version of HeadScan.
    case newerDocument(session: String, file: String, version: Int, supported: Int)
    /// A document's values are out of range.
    case invalidDocument(file: String, reason: String)
    /// A file operation failed; the library is as it was before.
    case fileOperationFailed(operation: String, path: String, reason: String)
    /// A file operation failed and undoing the steps already done failed too.
    case rollbackFailed(operation: String, path: String, reason: String)

    public var description: String {
        switch self {
        case .unreadableLibrary(let path, let reason):
            "cannot open the scan library at \(path): \(reason)"
        case .sessionNotFound(let name):
            "no scan session named \(name); list them with `headscan library list`"
        case .invalidName(let name, let reason):
            "\"\(name)\" is not a valid scan name: \(reason); use the form [ID]_yyyy-MM-ddTHH-mm-ss_Scan, e.g. 123_2024-05-01T10-30-00_Scan"
        case .nameTaken(let name):
            "a scan named \(name) exists already; choose another name"
        case .sameName(let name):
            "the scan is already named \(name)"
        case .invalidPatientID(let id):
            "patient ID \(id) is not valid; use a positive whole number"
        case .corruptDocument(let session, let file, let reason):
            "\(session)/\(file) cannot be read (\(reason)); fix or delete the file, the rest of the library still works"
        case .newerDocument(let session, let file, let version, let supported):
            "\(session)/\(file) has version \(version), this HeadScan reads up to \(supported); update HeadScan"
        case .invalidDocument(let file, let reason):
            "cannot save \(file): \(reason)"
        case .fileOperationFailed(let operation, let path, let reason):
            "cannot \(operation) \(path): \(reason); nothing was changed"
        case .rollbackFailed(let operation, let path, let reason):
            "cannot \(operation) \(path) and could not undo the steps already done (\(reason)); check the folder by hand"
        }
    }
}

/// What is wrong with a proposed session name.
public enum NameProblem: Equatable, Sendable, CustomStringConvertible {
    /// The name is empty.
    case empty
    /// The name is longer than the limit, in UTF-8 bytes.
    case tooLong(limit: Int)
    /// The name contains `/`, `\` or `:`.
    case pathSeparator
    /// The name is `.`/`..` or contains `..`, or starts with a dot.
    case pathTraversal
    /// A character that may not appear (control, invisible, whitespace or punctuation).
    case forbiddenCharacter(String)
    /// The name does not end in `_Scan` or lacks one of its parts.
    case wrongShape
    /// The date part is not a real `yyyy-MM-dd'T'HH-mm-ss` date.
    case badDate(String)
    /// The ID part is empty.
    case emptyID

    public var description: String {
        switch self {
        case .empty: "the name is empty"
        case .tooLong(let limit): "the name is longer than \(limit) bytes"
        case .pathSeparator: "it contains a path separator (/, \\ or :)"
        case .pathTraversal: "it contains \"..\" or starts with a dot"
        case .forbiddenCharacter(let c): "it contains the character \(c), which is not allowed (letters, digits and - only in the ID)"
        case .wrongShape: "it must consist of an ID, a date and the word Scan, separated by _"
        case .badDate(let d): "\"\(d)\" is not a date of the form yyyy-MM-ddTHH-mm-ss"
        case .emptyID: "the ID part is empty"
        }
    }
}

// Apps show `localizedDescription`; without this they would show a generic sentence instead
// of the message that says what to do.
extension ScanLibraryError: LocalizedError {
    public var errorDescription: String? { description }
}
