import AppSupport
import Feedback
import Observation
import ScanLibrary

/// Where the home screen leads.
public enum HomeDestination: Sendable, Equatable {
    case instructions, scan, replay, files, settings
    /// The knee measurement, starting with whose knee.
    case knee
    /// The head-gesture demo.
    case gestures
}

/// The home screen: free storage, thermal state, a test sound and the way to every screen.
@MainActor @Observable
public final class HomeModel {
    /// Free storage, when it could be read.
    public private(set) var storage: StorageStatus?
    /// The device's thermal state.
    public private(set) var thermalState: ThermalState
    /// Called when the user opens a screen.
    @ObservationIgnored public var onOpen: (HomeDestination) -> Void = { _ in }

    @ObservationIgnored private let storageMonitor: any StorageMonitor
    @ObservationIgnored private let thermalMonitor: any ThermalMonitor
    @ObservationIgnored private let player: any FeedbackPlayer
    /// The texts; replaced when the language setting changes.
    var strings: Strings

    /// A home screen reading the monitors now.
    public init(storage: any StorageMonitor, thermal: any ThermalMonitor, player: any FeedbackPlayer, strings: Strings) {
        storageMonitor = storage
        thermalMonitor = thermal
        self.player = player
        self.strings = strings
        thermalState = thermal.currentThermalState()
        refresh()
    }

    /// Reads free storage and the thermal state again (on launch, after Scan and Files close).
    public func refresh() {
        storage = try? storageMonitor.currentStorage()
        thermalState = thermalMonitor.currentThermalState()
    }

    /// The system reported a new thermal state.
    public func thermalStateChanged(_ state: ThermalState) { thermalState = state }

    /// "12,5 GB free", or that storage cannot be read.
    public var storageText: String {
        guard let storage else { return strings(.homeStorageUnknown) }
        return strings(.homeStorageFree, strings.decimal(storage.freeGigabytes))
    }

    /// Red under 3 GB (or unknown), green otherwise.
    public var storageColour: StatusColour { storage.map { $0.isLow ? .red : .green } ?? .red }

    /// The warning shown under 3 GB, nil otherwise.
    public var storageWarning: String? { storage?.isLow == false ? nil : strings(.homeStorageLow) }

    /// The thermal state in words.
    public var thermalText: String { strings.thermalName(thermalState) }

    /// Green, orange or red.
    public var thermalColour: StatusColour { thermalState.colour }

    /// "Let the phone cool down before scanning", when serious or critical.
    public var thermalWarning: String? { thermalState.allowsScanning ? nil : strings(.homeThermalWarning) }

    /// Whether the Scan button is enabled: not while the device is too hot.
    public var canStartScan: Bool { thermalState.allowsScanning }

    /// Speaks a test sentence so the operator can set the volume.
    public func playTestSound() {
        player.speak(strings(.homeTestSoundPhrase), language: strings.language)
    }

    /// Opens a screen; Scan only when the device is cool enough.
    public func open(_ destination: HomeDestination) {
        if destination == .scan, !canStartScan { return }
        onOpen(destination)
    }
}

extension Strings {
    /// The thermal state's name.
    func thermalName(_ state: ThermalState) -> String {
        switch state {
        case .nominal: self(.thermalNominal)
        case .fair: self(.thermalFair)
        case .serious: self(.thermalSerious)
        case .critical: self(.thermalCritical)
        }
    }
}
