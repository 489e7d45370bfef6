import ArgumentParser
import Foundation
import ScanLibrary

/// `headscan library`: what the app's Files screen does, for scripts.
struct LibraryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "library",
        abstract: "List, show, rename and delete scan sessions in a scan library folder.",
        discussion: """
            A library holds one folder per scan session, named [ID]_yyyy-MM-ddTHH-mm-ss_Scan, \
            with scan.hscan, patient.json, rating.json, annotations.json, measurement.json and \
            head.ply. Renames and deletes are all-or-nothing, as in the app.

            Examples:
              headscan library list --root Scans
              headscan library show 12_2024-05-01T10-30-00_Scan --root Scans --json
              headscan library rename 12_2024-05-01T10-30-00_Scan 12-Huber_2024-05-01T10-30-00_Scan --root Scans
              headscan library delete new_2024-05-01T10-30-00_Scan --root Scans
            """,
        subcommands: [List.self, Show.self, Rename.self, Delete.self])

    /// The options every library subcommand takes.
    struct Options: ParsableArguments {
        @Option(help: "The library folder.")
        var root: String

        @OptionGroup var outputOptions: OutputOptions

        var library: ScanLibrary { ScanLibrary(root: fileURL(root)) }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Every session with its status; items that are not sessions are listed as strays.")

        @OptionGroup var options: Options

        func run() throws {
            let listing = try options.library.list()
            let report = ListingReport(listing)
            if options.outputOptions.json { return try printJSON(report) }
            for entry in report.sessions { print(entry.line) }
            for stray in report.strays { print("stray: \(stray.name): \(stray.reason)") }
            if report.sessions.isEmpty { print("no scan sessions in \(options.root)") }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "One session: its files, patient data, rating and annotations.")

        @Argument(help: "The session's folder name.")
        var name: String

        @OptionGroup var options: Options

        func run() throws {
            let library = options.library
            let session = try library.session(named: name)
            let report = SessionReport(library: library, session: session)
            try options.outputOptions.emit(report)
        }
    }

    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Renames one session (the form [ID]_yyyy-MM-ddTHH-mm-ss_Scan stays).")

        @Argument(help: "The session's current folder name.")
        var name: String

        @Argument(help: "The new name.")
        var newName: String

        @OptionGroup var options: Options

        func run() throws {
            let library = options.library
            let renamed = try library.rename(library.session(named: name), to: newName)
            try options.outputOptions.emit(["renamed": name, "to": renamed.name.rawValue], text: "renamed \(name) to \(renamed.name.rawValue)")
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Deletes one or more sessions: all of them or, on an error, none.")

        @Argument(help: "The sessions' folder names.")
        var names: [String]

        @OptionGroup var options: Options

        func validate() throws {
            guard !names.isEmpty else { throw ValidationError("name at least one session to delete") }
        }

        func run() throws {
            let library = options.library
            var sessions: [ScanSession] = []
            for name in names { sessions.append(try library.session(named: name)) }
            try library.delete(sessions)
            try options.outputOptions.emit(["deleted": names], text: "deleted \(names.joined(separator: ", "))")
        }
    }
}
