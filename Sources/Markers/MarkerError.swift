import Foundation

/// Errors from the Markers module, worded for the person who typed the input.
public enum MarkerError: Error, Equatable, CustomStringConvertible, LocalizedError {
    /// No predefined dictionary has this name.
    case unknownDictionary(String)
    /// The marker ID does not exist in the dictionary.
    case idOutOfRange(id: Int, dictionary: String, count: Int)
    /// A size or count that must be positive was not.
    case invalidSize(String)
    /// A cap layout that contradicts itself.
    case invalidLayout(String)
    /// A scan names a cap layout this build does not know.
    case unknownLayout(name: String, known: [String])

    public var description: String {
        switch self {
        case .unknownDictionary(let name):
            "unknown marker dictionary '\(name)'; known: \(MarkerDictionary.predefinedNames.joined(separator: ", "))"
        case .idOutOfRange(let id, let dictionary, let count):
            "marker ID \(id) is not in dictionary \(dictionary), which has IDs 0-\(count - 1)"
        case .invalidSize(let why):
            "invalid size: \(why)"
        case .invalidLayout(let why):
            "invalid cap layout: \(why)"
        case .unknownLayout(let name, let known):
            "the scan was made with cap layout \"\(name)\", which this version does not know (known: \(known.joined(separator: ", "))); update HeadScan or give the layout file"
        }
    }

    public var errorDescription: String? { description }
}
