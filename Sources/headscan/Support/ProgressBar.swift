#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A one-line progress bar on standard error, drawn only when it is a terminal so that
/// piped and logged output stays clean.
struct ProgressBar {
    let title: String
    private let enabled: Bool
    private var lastDrawn = -1

    init(_ title: String) {
        self.title = title
        enabled = isatty(STDERR_FILENO) != 0
    }

    /// Redraws the bar when the shown percentage changes.
    mutating func update(_ done: Int, of total: Int) {
        guard enabled, total > 0 else { return }
        let percent = min(100, done * 100 / total)
        guard percent != lastDrawn else { return }
        lastDrawn = percent
        let width = 30
        let filled = percent * width / 100
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        writeError("\r\(title) [\(bar)] \(percent)% \(done)/\(total)")
        if done >= total { writeError("\n") }
    }
}

/// Writes text to standard error.
func writeError(_ text: String) {
    var copy = text
    copy.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
}

/// One progress bar per stage of a multi-stage job, titled with the stage's name.
struct StagedProgressBar {
    let title: String
    private var stage = ""
    private var bar: ProgressBar

    init(_ title: String) {
        self.title = title
        bar = ProgressBar(title)
    }

    /// Shows `done` of `total` in `stage`, starting a new bar when the stage changes.
    mutating func update(stage: String, _ done: Int, of total: Int) {
        if stage != self.stage {
            self.stage = stage
            bar = ProgressBar("\(title) (\(stage))")
        }
        bar.update(done, of: total)
    }
}
