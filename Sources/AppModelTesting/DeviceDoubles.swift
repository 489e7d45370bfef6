import AppModel
import Feedback
import ScanLibrary

/// Free storage that stays what it was set to.
public struct FixedStorageMonitor: StorageMonitor {
    /// The free bytes reported.
    public var freeBytes: Int64

    /// A monitor reporting `freeBytes` (10 GB unless given: enough to scan).
    public init(freeBytes: Int64 = 10_000_000_000) { self.freeBytes = freeBytes }

    public func currentStorage() throws -> StorageStatus { StorageStatus(freeBytes: freeBytes) }
}

/// A thermal state a test can change.
public final class FixedThermalMonitor: ThermalMonitor, @unchecked Sendable {
    // Tests set the state between calls on one thread; no lock needed.
    /// The state reported.
    public var state: ThermalState

    /// A monitor reporting `state`.
    public init(_ state: ThermalState = .nominal) { self.state = state }

    public func currentThermalState() -> ThermalState { state }
}

/// Writes down what it would play instead of vibrating or speaking.
@MainActor
public final class RecordingFeedbackPlayer: FeedbackPlayer {
    /// "vibration", or "de: text" for each utterance, in order.
    public private(set) var played: [String] = []

    /// A player with nothing played.
    public init() {}

    public func playVibration() { played.append("vibration") }
    public func speak(_ text: String, language: Language) { played.append("\(language.rawValue): \(text)") }
}

/// Writes down when the screen would be dimmed and restored.
@MainActor
public final class RecordingScreenDimmer: ScreenDimmer {
    /// "dim" and "restore", in order.
    public private(set) var calls: [String] = []

    public init() {}

    public func dim() { calls.append("dim") }
    public func restore() { calls.append("restore") }
}
