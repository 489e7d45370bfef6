import Feedback
import Foundation
import ScanLibrary
import Testing

struct SettingsAndDeviceTests {
    @Test func defaultsComeFromFeedbackSettings() throws {
        let settings = try SettingsStore(store: InMemoryKeyValueStore()).load()
        #expect(settings == FeedbackSettings())
        #expect(settings.markerCount == 57)
        #expect(settings.language == .de)
    }

    @Test func aJSONFileStoreRoundTrips() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let url = folder.url.appendingPathComponent("settings.json")
        var settings = FeedbackSettings()
        settings.markerCount = 50
        settings.phrasing = .headInPicture
        settings.invalidDepthRatio = 0.25
        try SettingsStore(store: JSONFileKeyValueStore(url: url)).save(settings)
        #expect(try SettingsStore(store: JSONFileKeyValueStore(url: url)).load() == settings)
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
        #expect(object?["markerCount"] as? Int == 50)
        #expect(object?["phrasing"] as? String == "headInPicture")
    }

    @Test func badStoresGiveClearErrors() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let url = folder.url.appendingPathComponent("settings.json")
        try write("{ nope", to: url)
        #expect(throws: SettingsError.corruptStore(path: url.path, reason: "not valid JSON")) {
            try SettingsStore(store: JSONFileKeyValueStore(url: url)).load()
        }
        #expect(throws: SettingsError.self) {
            try SettingsStore(store: InMemoryKeyValueStore(["markerCount": .number(0)])).load()
        }
        #expect(throws: SettingsError.self) {
            try SettingsStore(store: InMemoryKeyValueStore(["language": .string("fr")])).load()
        }
        var bad = FeedbackSettings()
        bad.markerCount = -1
        let store = InMemoryKeyValueStore()
        #expect(throws: SettingsError.self) { try SettingsStore(store: store).save(bad) }
        #expect(try store.value(forKey: "markerCount") == nil)
    }

    @Test func storageIsLowUnderThreeGigabytes() {
        #expect(StorageStatus(freeBytes: 2_999_999_999).isLow)
        #expect(!StorageStatus(freeBytes: 3_000_000_000).isLow)
        #expect(StorageStatus(freeBytes: 12_500_000_000).freeGigabytes == 12.5)
    }

    @Test func thermalStatesAllowScanningOnlyWhenCool() {
        #expect(ThermalState.allCases.map(\.allowsScanning) == [true, true, false, false])
        #expect(ThermalState.allCases.map(\.colour) == [.green, .green, .orange, .red])
    }

    @Test func theVolumeMonitorReadsTheFileSystem() throws {
        let status = try VolumeStorageMonitor(url: FileManager.default.temporaryDirectory).currentStorage()
        #expect(status.freeBytes > 0)
    }
}
