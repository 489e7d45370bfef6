import Foundation

/// What can go wrong in the Feedback module, with messages an operator can act on.
public enum FeedbackError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A setting out of its range: name and rule.
    case invalidSetting(String, String)
    /// A malformed observation: line (1-based, 0 when unknown) and what is wrong.
    case invalidObservation(line: Int, String)
    /// espeak-ng is not installed.
    case speechSynthesizerMissing
    /// espeak-ng ran but failed, or its output was unreadable.
    case speechSynthesisFailed(String)
    /// Writing the audio file failed.
    case cannotWrite(String)

    public var description: String {
        switch self {
        case .invalidSetting(let name, let rule): "setting \(name) \(rule)"
        case .invalidObservation(let line, let what): line > 0 ? "observation line \(line): \(what)" : "observation: \(what)"
        case .speechSynthesizerMissing:
            "espeak-ng is not installed; install it with `sudo apt-get install espeak-ng` (Debian/Ubuntu) to render speech"
        case .speechSynthesisFailed(let why): "speech synthesis failed: \(why)"
        case .cannotWrite(let why): "cannot write the audio file: \(why)"
        }
    }
}

// Apps show `localizedDescription`; without this they would show a generic sentence instead
// of the message that says what to do.
extension FeedbackError: LocalizedError {
    public var errorDescription: String? { description }
}
