import Foundation

/// Runs `body` on a hidden temporary file beside `output` and renames it into place only when
/// `body` succeeds; on failure the temporary file is removed and `output` is left as it was.
func writeAtomically<T>(_ output: URL, _ body: (URL) throws -> T) throws -> T {
    let partial = output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).partial")
    try? FileManager.default.removeItem(at: partial)
    do {
        let result = try body(partial)
        // rename(2) replaces the old file in one step: a reader sees the old scan or the new one.
        guard rename(partial.path, output.path) == 0 else {
            throw CocoaError(
                .fileWriteUnknown,
                userInfo: [
                    NSLocalizedDescriptionKey: "cannot move the new scan into place at \(output.path): \(String(cString: strerror(errno)))"
                ])
        }
        return result
    } catch {
        try? FileManager.default.removeItem(at: partial)
        throw error
    }
}

extension ScanWriter.Options {
    /// These options for writing the temporary file of `writeAtomically`: refuses an existing
    /// `output` unless overwriting was asked for.
    func forAtomicWrite(to output: URL) throws -> ScanWriter.Options {
        if !overwrite, FileManager.default.fileExists(atPath: output.path) {
            throw ScanFileError.cannotOpen(path: output.path, reason: "the file exists")
        }
        var options = self
        options.overwrite = true
        return options
    }
}
