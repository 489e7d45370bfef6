import Foundation

/// Everything that can go wrong reading or writing a scan file, in words a user can act on.
public enum ScanFileError: Error, Equatable, CustomStringConvertible {
    /// The file could not be opened or created.
    case cannotOpen(path: String, reason: String)
    /// Reading or writing failed at the operating-system level (disk full, removed media).
    case io(path: String, reason: String)
    /// The file does not start with the scan magic number.
    case notAScan(path: String)
    /// The file was written by a newer format version than this reader knows.
    case newerVersion(path: String, version: Int, supported: Int)
    /// The file ends inside its header: it was cut off before any frame was stored.
    case truncatedHeader(path: String)
    /// The header is present but unreadable.
    case damagedHeader(path: String, reason: String)
    /// One frame's record is damaged; the other frames can still be read.
    case damagedFrame(index: Int, reason: String)
    /// A frame index outside the recording.
    case frameOutOfRange(index: Int, count: Int)
    /// A frame cannot be written (empty images, sizes that do not match).
    case invalidFrame(String)
    /// The writer was used after `close()`.
    case writerClosed

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): "cannot open \(path): \(reason)"
        case .io(let path, let reason): "reading or writing \(path) failed: \(reason)"
        case .notAScan(let path): "\(path) is not a HeadScan recording (wrong magic number)"
        case .newerVersion(let path, let version, let supported):
            "\(path) uses scan format version \(version), but this build reads up to version "
                + "\(supported); update HeadScan to open it"
        case .truncatedHeader(let path):
            "\(path) ends inside its header: the recording stopped before any frame was saved"
        case .damagedHeader(let path, let reason): "the header of \(path) is damaged: \(reason)"
        case .damagedFrame(let index, let reason): "frame \(index) is damaged: \(reason)"
        case .frameOutOfRange(let index, let count):
            "frame \(index) does not exist; the recording has \(count) frames (0...\(count - 1))"
        case .invalidFrame(let why): "cannot record this frame: \(why)"
        case .writerClosed: "the recording was already closed"
        }
    }
}

// Apps show `localizedDescription`; without this they would show a generic sentence instead
// of the message that says what to do.
extension ScanFileError: LocalizedError {
    public var errorDescription: String? { description }
}
