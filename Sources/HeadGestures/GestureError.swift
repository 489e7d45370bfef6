import Foundation

/// What can go wrong with head gestures, with messages that say what to change.
public enum GestureError: Error, Sendable, Equatable, LocalizedError, CustomStringConvertible {
    /// A setting out of its range: its name, the rule, and what to do.
    case invalidSetting(name: String, rule: String)
    /// The settings text is not valid settings JSON.
    case unreadableSettings(String)
    /// A line of a face stream that cannot be used: 1-based line number and what is wrong.
    case invalidFrame(line: Int, String)
    /// A face stream without a single frame.
    case emptyStream
    /// A file that cannot be read or written: its path and the system's reason.
    case fileAccess(path: String, String)
    /// A simulation script that cannot produce the gesture it promises.
    case invalidScript(String)

    public var description: String {
        switch self {
        case .invalidSetting(let name, let rule):
            "the setting \(name) \(rule)"
        case .unreadableSettings(let why):
            "the settings cannot be read: \(why); give a JSON object such as {\"mode\":\"continuous\",\"idleZoneDiameter\":0.4}"
        case .invalidFrame(let line, let why):
            "line \(line): \(why); each line must be one JSON object such as "
                + #"{"t":0.033,"width":640,"height":480,"leftEye":[352,210],"rightEye":[288,211],"mouth":[320,285]} or {"t":0.033,"face":null}"#
        case .emptyStream:
            "the face stream holds no frames; write one JSON object per line, one line per camera frame"
        case .fileAccess(let path, let why):
            "cannot access \(path): \(why); check the path and its permissions"
        case .invalidScript(let why):
            "the simulation script is not usable: \(why)"
        }
    }

    public var errorDescription: String? { description }
}
