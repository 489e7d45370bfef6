import ArgumentParser
import Foundation
import Markers
import Recording

/// `--cap FILE`: a cap layout JSON file (see `headscan markers cap --json`).
struct CapOption: ParsableArguments {
    @Option(name: .customLong("cap"), help: "A cap layout JSON file (see `headscan markers cap --json`).", completion: .file(extensions: ["json"]))
    var file: String?

    /// The layout in the file, or nil when no file was given.
    func layout() throws -> CapLayout? {
        guard let file else { return nil }
        return try CapLayoutFile.read(file)
    }

    /// The layout in the file, else the one `header` keeps (or names, for older scans).
    func layout(for header: ScanHeader) throws -> CapLayout {
        try layout() ?? header.layout()
    }
}

/// Reading cap layout files with messages that name the file.
enum CapLayoutFile {
    struct Unreadable: LocalizedError, CustomStringConvertible {
        let path: String
        let reason: String
        var description: String { "\(path): \(reason)" }
        var errorDescription: String? { description }
    }

    static func read(_ path: String) throws -> CapLayout {
        let bytes: [UInt8]
        do {
            bytes = Array(try Data(contentsOf: fileURL(path)))
        } catch {
            throw Unreadable(path: path, reason: "cannot read the cap layout file; check the path (\(error.localizedDescription))")
        }
        do {
            return try CapLayout.decode(json: bytes)
        } catch {
            throw Unreadable(path: path, reason: error.description)
        }
    }
}
