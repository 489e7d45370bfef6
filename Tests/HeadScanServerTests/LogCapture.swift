import Foundation
import Logging

/// A log handler that keeps every message with its metadata, so tests can read what the
/// service would have written.
struct LogCapture: LogHandler {
    final class Lines: @unchecked Sendable {
        private var lines: [String] = []
        private let lock = NSLock()
        func append(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
        var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
    }

    let lines: Lines
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lines.append("\(event.level) \(event.message) \(metadata.merging(event.metadata ?? [:]) { $1 })")
    }

    /// A logger writing into `lines`.
    static func logger(_ lines: Lines) -> Logger {
        Logger(label: "test") { _ in LogCapture(lines: lines) }
    }
}
