#if canImport(Darwin)
import Foundation
import ScanLibrary

/// The device's thermal state as iOS reports it, and its changes.
public struct LiveThermalMonitor: ThermalMonitor {
    /// The system's monitor.
    public init() {}

    public func currentThermalState() -> ThermalState { ProcessThermalMonitor().currentThermalState() }

    /// Every change of the thermal state, from `ProcessInfo.thermalStateDidChangeNotification`.
    public func changes() -> AsyncStream<ThermalState> {
        AsyncStream { continuation in
            let observer = NotificationCenter.default.addObserver(
                forName: ProcessInfo.thermalStateDidChangeNotification, object: nil, queue: nil
            ) { _ in
                continuation.yield(ProcessThermalMonitor().currentThermalState())
            }
            let token = ObserverToken(observer)
            continuation.onTermination = { _ in NotificationCenter.default.removeObserver(token.observer) }
        }
    }
}

private final class ObserverToken: @unchecked Sendable {
    let observer: NSObjectProtocol
    init(_ observer: NSObjectProtocol) { self.observer = observer }
}

/// Free storage for the app: `volumeAvailableCapacityForImportantUsage` of the volume holding
/// the library (what iOS would free for a scan the user starts).
public struct LiveStorageMonitor: StorageMonitor {
    private let volume: VolumeStorageMonitor

    /// A monitor of the volume holding `url` (the library's root).
    public init(url: URL) { volume = VolumeStorageMonitor(url: url) }

    public func currentStorage() throws -> StorageStatus { try volume.currentStorage() }
}
#endif
