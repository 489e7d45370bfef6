import AppModel
import Cephalometry
import Feedback
import Foundation
import Recording
import ScanLibrary

/// A clock that returns from every sleep at once, advancing its time, and records the sleeps.
final class TestClock: AppClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current = Date(timeIntervalSince1970: 1_714_559_400)  // 2024-05-01T10:30:00Z
    private var slept: [Double] = []
    /// Runs at the start of every sleep, to look at the state before the wait ends.
    var onSleep: @MainActor (Double) -> Void = { _ in }

    func now() -> Date { lock.withLock { current } }
    var sleeps: [Double] { lock.withLock { slept } }

    func sleep(seconds: Double) async throws {
        await onSleep(seconds)
        lock.withLock {
            slept.append(seconds)
            current += seconds
        }
    }
}

struct FakeStorage: StorageMonitor {
    var freeBytes: Int64
    func currentStorage() throws -> StorageStatus { StorageStatus(freeBytes: freeBytes) }
}

final class FakeThermal: ThermalMonitor, @unchecked Sendable {
    var state: ThermalState
    init(_ state: ThermalState = .nominal) { self.state = state }
    func currentThermalState() -> ThermalState { state }
}

@MainActor
final class RecordingPlayer: FeedbackPlayer {
    var played: [String] = []
    func playVibration() { played.append("vibration") }
    func speak(_ text: String, language: Language) { played.append("\(language.rawValue): \(text)") }
}

/// What a recorder throws when the disk is full: one of the product's own errors, so the tests
/// see whether its message reaches the screen (a test double with its own LocalizedError would
/// hide a product error that lacks one).
let recorderFailure = ScanFileError.io(path: "scan.hscan", reason: "no space left on the device")

/// A recorder that writes a small placeholder file and logs its calls.
@MainActor
final class FakeRecorder: ScanRecorder {
    var calls: [String] = []
    var failStart = false
    var progress: (@MainActor (ScanProgressReport) -> Void)?

    func start(writingTo url: URL, settings: FeedbackSettings, progress: @escaping @MainActor (ScanProgressReport) -> Void) async throws {
        calls.append("start")
        if failStart { throw recorderFailure }
        try Data("scan".utf8).write(to: url)
        self.progress = progress
    }
    func pause() async { calls.append("pause") }
    func resume() async throws { calls.append("resume") }
    func stop() async throws { calls.append("stop") }
}

/// A replay of fixed frames: which of them overlap enough.
@MainActor
final class FakeReplayPlayer: ReplayPlayer {
    let overlap: [Bool]
    var next = 0
    init(overlap: [Bool]) { self.overlap = overlap }

    func nextFrame() throws -> ReplayFrameInfo? {
        guard next < overlap.count else { return nil }
        defer { next += 1 }
        return ReplayFrameInfo(index: next, overlapSufficient: overlap[next], percent: next * 10, colour: .red)
    }
    func restart() throws { next = 0 }
}

/// A temporary library folder.
struct TestLibrary {
    let folder: URL
    let library: ScanLibrary

    init(fileSystem: any FileSystem = LiveFileSystem()) {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("AppModelTests-\(UUID().uuidString)")
        library = ScanLibrary(root: folder.appendingPathComponent("Scans"), fileSystem: fileSystem, timeZone: TimeZone(identifier: "UTC")!)
    }

    func cleanUp() { try? FileManager.default.removeItem(at: folder) }

    /// A session with a scan file and saved patient data.
    func savedSession(id: Int, minute: Int = 0) throws -> ScanSession {
        let session = try library.createSession(date: Date(timeIntervalSince1970: 1_714_559_400 + Double(minute * 60)))
        try Data("scan".utf8).write(to: session.scanURL)
        return try library.savePatient(
            PatientRecord(patientID: id, calliper: CalliperMeasurements(lengthMM: 140, widthMM: 120, diagonalAMM: 150, diagonalBMM: 145, circumferenceMM: 430),
                          enteredAt: Date(timeIntervalSince1970: 0)),
            in: session)
    }
}

/// The live file system, except that every move fails.
struct NoMoveFileSystem: FileSystem {
    struct Injected: Error, CustomStringConvertible { var description: String { "injected failure" } }
    let live = LiveFileSystem()
    func itemKind(at url: URL) -> ItemKind? { live.itemKind(at: url) }
    func contentsOfDirectory(at url: URL) throws -> [String] { try live.contentsOfDirectory(at: url) }
    func createDirectory(at url: URL) throws { try live.createDirectory(at: url) }
    func moveItem(at source: URL, to destination: URL) throws { throw Injected() }
    func removeItem(at url: URL) throws { try live.removeItem(at: url) }
    func readData(at url: URL) throws -> Data { try live.readData(at: url) }
    func writeData(_ data: Data, to url: URL) throws { try live.writeData(data, to: url) }
}

func strings(_ language: Language = .en) -> Strings { try! Strings(language: language) }

/// A value a test's closures can set.
@MainActor
final class Box<T> {
    var value: T
    init(_ value: T) { self.value = value }
}
