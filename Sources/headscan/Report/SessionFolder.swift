import ArgumentParser
import Foundation
import Processing
import Report
import ScanLibrary
import Simulation

/// A session folder named on the command line, in the library that holds it.
struct SessionFolder {
    /// Ground truth kept with simulated scans.
    static let truthFileName = "truth.json"

    let library: ScanLibrary
    let session: ScanSession

    /// The session folder at `path`; a clear error for a file, a library or anything else.
    init(_ path: String) throws {
        let folder = fileURL(path).standardizedFileURL
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw ToolError("\(folder.path) is not a folder; give a session folder of a scan library")
        }
        library = ScanLibrary(root: folder.deletingLastPathComponent())
        do {
            session = try library.session(named: folder.lastPathComponent)
        } catch {
            if let sessions = try? ScanLibrary(root: folder).list().entries, !sessions.isEmpty {
                throw ToolError("\(folder.path) is a scan library; give one of its session folders (`headscan library list --root \(folder.path)`)")
            }
            throw ToolError("\(folder.path) is not a scan session folder: \(error)")
        }
    }

    init(library: ScanLibrary, session: ScanSession) {
        self.library = library
        self.session = session
    }

    /// The simulation's true values as a report column, when the session is simulated.
    func truthReference() throws -> (reference: ReferenceValues, note: String)? {
        let url = session.url.appendingPathComponent(Self.truthFileName)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let truth: ScanTruth
        do {
            truth = try JSONDecoder().decode(ScanTruth.self, from: Data(contentsOf: url))
        } catch {
            throw ToolError("\(url.path) cannot be read: \(error)")
        }
        let m = truth.measurements
        return (
            ReferenceValues(
                label: "Truth (simulation)", cvai: m.cvai, cvaMM: m.cvaMM, diagonalAMM: m.diagonalAMM, diagonalBMM: m.diagonalBMM,
                lengthMM: m.lengthMM, widthMM: m.widthMM, ci: m.ci, circumferenceMM: m.circumferenceMM),
            "Simulated scan: the truth column is the simulated head's exact geometry."
        )
    }
}
