import ArgumentParser

/// `--json`, shared by every command that prints a result: text for people, or one line of
/// JSON with sorted keys for scripts.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print one line of JSON (sorted keys) instead of text.")
    var json = false

    /// Prints `report` as JSON or as its text.
    func emit(_ report: some TextReport) throws {
        if json { try printJSON(report) } else { print(report.text) }
    }

    /// Prints `value` as JSON, or `text` for people.
    func emit(_ value: some Encodable, text: @autoclosure () -> String) throws {
        if json { try printJSON(value) } else { print(text()) }
    }
}

/// A command's result: readable text, and the JSON scripts rely on.
protocol TextReport: Encodable {
    var text: String { get }
}
