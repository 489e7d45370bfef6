import Foundation

/// Free storage on the device, and whether it is too little to start a scan.
public struct StorageStatus: Sendable, Equatable {
    /// Bytes free for the app.
    public var freeBytes: Int64

    /// Below this a scan may not fit: one can take 2–3 GB raw.
    public static let lowThreshold: Int64 = 3_000_000_000

    /// A status for `freeBytes`.
    public init(freeBytes: Int64) { self.freeBytes = freeBytes }

    /// Whether storage is under 3 GB (shown red, with an alert before scanning).
    public var isLow: Bool { freeBytes < Self.lowThreshold }
    /// Free storage in gigabytes (10⁹ bytes, as the system reports it).
    public var freeGigabytes: Double { Double(freeBytes) / 1e9 }
}

/// The device's thermal state, as iOS reports it.
public enum ThermalState: String, Sendable, Codable, CaseIterable {
    case nominal, fair, serious, critical

    /// Whether a scan may start or go on (nominal and fair).
    public var allowsScanning: Bool { self == .nominal || self == .fair }
    /// The icon's colour: green while scanning is fine, orange when serious, red when critical.
    public var colour: StatusColour {
        switch self {
        case .nominal, .fair: .green
        case .serious: .orange
        case .critical: .red
        }
    }
}

/// Traffic-light colours of status icons.
public enum StatusColour: String, Sendable, Codable {
    case green, orange, red
}

/// Reports free storage.
public protocol StorageMonitor: Sendable {
    /// The storage status now.
    func currentStorage() throws -> StorageStatus
}

/// Reports the thermal state.
public protocol ThermalMonitor: Sendable {
    /// The thermal state now.
    func currentThermalState() -> ThermalState
}

/// Free storage of the volume holding `url`, from the file system.
public struct VolumeStorageMonitor: StorageMonitor {
    /// A folder on the volume to watch (the library's root).
    public let url: URL

    /// A monitor of the volume holding `url`.
    public init(url: URL) { self.url = url }

    public func currentStorage() throws -> StorageStatus {
        #if canImport(Darwin)
        // What iOS would free for an important, user-started action such as a scan.
        let values = try url.resourceValues(forKeys: [.volumeAvailableCapacityForImportantUsageKey])
        if let free = values.volumeAvailableCapacityForImportantUsage { return StorageStatus(freeBytes: free) }
        #endif
        let attributes = try FileManager.default.attributesOfFileSystem(forPath: url.path)
        let free = (attributes[.systemFreeSize] as? NSNumber)?.int64Value ?? 0
        return StorageStatus(freeBytes: free)
    }
}

#if canImport(Darwin)
/// The thermal state the operating system reports through ProcessInfo (Apple platforms;
/// Linux has no equivalent).
public struct ProcessThermalMonitor: ThermalMonitor {
    /// The system's monitor.
    public init() {}

    public func currentThermalState() -> ThermalState {
        switch ProcessInfo.processInfo.thermalState {
        case .nominal: .nominal
        case .fair: .fair
        case .serious: .serious
        case .critical: .critical
        @unknown default: .serious
        }
    }
}
#endif
