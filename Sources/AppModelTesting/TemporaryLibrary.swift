import Cephalometry
import Foundation
import ScanLibrary

/// A scan library in a fresh temporary folder, for tests and previews; `cleanUp()` removes it.
public struct TemporaryLibrary {
    /// The folder holding the library.
    public let folder: URL
    /// The library, in `folder/Scans`, with dates in UTC.
    public let library: ScanLibrary

    /// An empty library on `fileSystem` (the real one unless given).
    public init(fileSystem: any FileSystem = LiveFileSystem()) {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("HeadScanLibrary-\(UUID().uuidString)")
        library = ScanLibrary(root: folder.appendingPathComponent("Scans"), fileSystem: fileSystem, timeZone: TimeZone(identifier: "UTC")!)
    }

    /// Removes the folder and everything in it.
    public func cleanUp() { try? FileManager.default.removeItem(at: folder) }

    /// A session `minute` minutes after 2024-05-01T10:30:00Z with a placeholder scan file
    /// and saved patient data for patient `id`.
    public func savedSession(id: Int, minute: Int = 0) throws -> ScanSession {
        let session = try library.createSession(date: Date(timeIntervalSince1970: 1_714_559_400 + Double(minute * 60)))
        try Data("scan".utf8).write(to: session.scanURL)
        let calliper = CalliperMeasurements(lengthMM: 140, widthMM: 120, diagonalAMM: 150, diagonalBMM: 145, circumferenceMM: 430)
        return try library.savePatient(PatientRecord(patientID: id, calliper: calliper, enteredAt: Date(timeIntervalSince1970: 0)), in: session)
    }
}

/// The real file system, except that every move fails: renames and saves that rename must
/// leave everything as it was.
public struct FailingMoveFileSystem: FileSystem {
    /// The error every move throws.
    public struct Injected: Error, CustomStringConvertible {
        public var description: String { "injected failure" }
    }

    private let live = LiveFileSystem()

    /// The file system with moves failing.
    public init() {}

    public func itemKind(at url: URL) -> ItemKind? { live.itemKind(at: url) }
    public func contentsOfDirectory(at url: URL) throws -> [String] { try live.contentsOfDirectory(at: url) }
    public func createDirectory(at url: URL) throws { try live.createDirectory(at: url) }
    public func moveItem(at source: URL, to destination: URL) throws { throw Injected() }
    public func removeItem(at url: URL) throws { try live.removeItem(at: url) }
    public func readData(at url: URL) throws -> Data { try live.readData(at: url) }
    public func writeData(_ data: Data, to url: URL) throws { try live.writeData(data, to: url) }
    public func excludeFromBackup(_ url: URL) throws { try live.excludeFromBackup(url) }
}
