import Cephalometry
import Foundation
import ScanLibrary

/// A fresh folder under the system's temporary directory, removed by `cleanUp`.
struct TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("ScanLibraryTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func cleanUp() { try? FileManager.default.removeItem(at: url) }

    /// The visible names inside the folder, sorted.
    var names: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
    }
}

/// The live file system, except that the chosen call of one operation fails.
struct FailingFileSystem: FileSystem {
    enum Operation: Sendable { case move, remove, write, create }
    struct Injected: Error, CustomStringConvertible { var description: String { "injected failure" } }

    let live = LiveFileSystem()
    let operation: Operation
    /// 1 fails the first call of the operation, 2 the second, …
    let failingCall: Int
    private let counter = Counter()

    init(failing operation: Operation, atCall call: Int = 1) {
        self.operation = operation
        failingCall = call
    }

    private func check(_ op: Operation) throws {
        guard op == operation else { return }
        if counter.next() == failingCall { throw Injected() }
    }

    func itemKind(at url: URL) -> ItemKind? { live.itemKind(at: url) }
    func contentsOfDirectory(at url: URL) throws -> [String] { try live.contentsOfDirectory(at: url) }
    func createDirectory(at url: URL) throws { try check(.create); try live.createDirectory(at: url) }
    func moveItem(at source: URL, to destination: URL) throws { try check(.move); try live.moveItem(at: source, to: destination) }
    func removeItem(at url: URL) throws { try check(.remove); try live.removeItem(at: url) }
    func readData(at url: URL) throws -> Data { try live.readData(at: url) }
    func writeData(_ data: Data, to url: URL) throws { try check(.write); try live.writeData(data, to: url) }
    func excludeFromBackup(_ url: URL) throws { try live.excludeFromBackup(url) }
}

/// A thread-safe call counter.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func next() -> Int {
        lock.withLock {
            value += 1; return value
        }
    }
}

let utc = TimeZone(identifier: "UTC")!
/// 2024-05-01T10:30:00Z.
let may1 = Date(timeIntervalSince1970: 1_714_559_400)

func library(_ folder: TemporaryFolder, _ fs: any FileSystem = LiveFileSystem()) -> ScanLibrary {
    ScanLibrary(root: folder.url.appendingPathComponent("Scans"), fileSystem: fs, timeZone: utc)
}

let sampleCalliper = CalliperMeasurements(lengthMM: 140, widthMM: 120, diagonalAMM: 150, diagonalBMM: 142.5, circumferenceMM: 430)

func patient(_ id: Int) -> PatientRecord {
    PatientRecord(patientID: id, calliper: sampleCalliper, enteredAt: may1)
}

func write(_ text: String, to url: URL) throws {
    try Data(text.utf8).write(to: url)
}

/// The live file system, writing down which items were kept out of backups.
final class BackupRecordingFileSystem: FileSystem, @unchecked Sendable {
    let live = LiveFileSystem()
    private let lock = NSLock()
    private var excludedItems: [URL] = []
    var excluded: [URL] { lock.withLock { excludedItems } }

    func itemKind(at url: URL) -> ItemKind? { live.itemKind(at: url) }
    func contentsOfDirectory(at url: URL) throws -> [String] { try live.contentsOfDirectory(at: url) }
    func createDirectory(at url: URL) throws { try live.createDirectory(at: url) }
    func moveItem(at source: URL, to destination: URL) throws { try live.moveItem(at: source, to: destination) }
    func removeItem(at url: URL) throws { try live.removeItem(at: url) }
    func readData(at url: URL) throws -> Data { try live.readData(at: url) }
    func writeData(_ data: Data, to url: URL) throws { try live.writeData(data, to: url) }
    func excludeFromBackup(_ url: URL) throws { lock.withLock { excludedItems.append(url) } }
}
