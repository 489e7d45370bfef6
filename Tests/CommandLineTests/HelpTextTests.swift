import Foundation
import Testing

/// Every command's `--help`, read from the real `headscan` binary.
struct HelpTextTests {
    /// A discussion's line continuation (`\` at a line's end in a multi-line string literal)
    /// that lost its backslash keeps the next line's indentation inside the paragraph: the
    /// wrapped text then shows a run of spaces between two words. Examples and JSON are
    /// indented; prose starts at the line's beginning.
    @Test func everyCommandsProseReadsWithoutGaps() throws {
        var pending: [[String]] = [[]], visited: Set<[String]> = []
        var gaps: [String] = []
        while let path = pending.popLast() {
            // Commands nest two deep; a deeper path is a misread list, not a command.
            guard path.count <= 3, visited.insert(path).inserted else { continue }
            let help = String(decoding: try headscan(path + ["--help"]), as: UTF8.self)
            let overview = help.components(separatedBy: "USAGE:").first ?? ""
            for line in overview.split(separator: "\n", omittingEmptySubsequences: false)
            where line.first.map({ !$0.isWhitespace }) ?? false && line.contains("   ") && Self.gapBetweenWords(line) {
                gaps.append("\(path.joined(separator: " ")): \(line)")
            }
            pending += Self.subcommands(help).map { path + [$0] }
        }
        #expect(visited.count > 40, "the walk found \(visited.count) commands")
        #expect(visited.allSatisfy { $0.count <= 2 })
        #expect(gaps.isEmpty, "\(gaps.joined(separator: "\n"))")
    }

    static func gapBetweenWords(_ line: Substring) -> Bool {
        line.trimmingCharacters(in: .whitespaces).contains("   ")
    }

    /// The names listed under every SUBCOMMANDS heading (grouped ones too), `help` left out;
    /// names are lowercase ("See 'headscan help …'" closes the list).
    static func subcommands(_ help: String) -> [String] {
        guard let range = help.range(of: "SUBCOMMANDS:") else { return [] }
        return help[range.upperBound...].split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  "), !line.hasPrefix("   "), let first = line.dropFirst(2).first, first.isLowercase else { return nil }
            let name = line.dropFirst(2).prefix { $0.isLowercase || $0.isNumber || $0 == "-" }
            return name == "help" ? nil : String(name)
        }
    }
}
