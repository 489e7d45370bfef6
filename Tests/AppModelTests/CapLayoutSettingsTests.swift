import AppModel
import AppModelTesting
import Feedback
import Foundation
import Geometry
import Markers
import Recording
import ScanLibrary
import Testing

@MainActor
struct CapLayoutSettingsTests {
    /// A cap of 40 markers of the 4x4_50 dictionary, 12 mm, eight per region, as a layout file.
    static let clinicCap = """
        {"name": "clinic-40", "dictionaryName": "4x4_50", "markerSideMillimetres": 12, "markers": [
        \((0..<40).map { #"{"id": \#($0), "region": "\#(HeadRegion.allCases[$0 / 8].rawValue)"}"# }.joined(separator: ",\n"))
        ]}
        """

    func file(_ text: String, named name: String = "cap.json") throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("caps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test func aValidFileBecomesTheCapAndIsKept() throws {
        let store = InMemoryKeyValueStore()
        let model = SettingsModel(store: SettingsStore(store: store), strings: strings())
        #expect(model.usesStandardCap && model.capSummary == "standard-57: 57 markers of 14 mm (4x4_100)")
        var announced: [String] = []
        model.onCapLayoutChange = { announced.append($0.name) }
        let url = try file(Self.clinicCap, named: "clinic.json")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        model.importCapLayout(contentsOf: url)
        #expect(model.capLayout.name == "clinic-40" && model.capLayout.markers.count == 40 && !model.usesStandardCap)
        #expect(model.capSummary == "clinic-40: 40 markers of 12 mm (4x4_50)")
        #expect(model.capMessage == "Cap clinic-40 in use; markers on the cap and the marker side now match it." && !model.capMessageIsProblem)
        #expect(announced == ["clinic-40"])
        // Progress counts this cap's markers; the ear and face rule measures with its size.
        #expect(model.settings.markerCount == 40 && model.settings.markerSide == 0.012)
        // Kept: the next settings screen, and the store itself, have it.
        let again = SettingsModel(store: SettingsStore(store: store), strings: strings())
        #expect(again.capLayout == model.capLayout && again.settings.markerCount == 40)
        #expect(try CapLayoutStore(store: store).load().name == "clinic-40")
        // Resetting the thresholds keeps them fitting the cap in use.
        again.resetToDefaults()
        #expect(again.settings.markerCount == 40 && again.settings.markerSide == 0.012 && again.settings.debounceFrames == 4)
    }

    @Test func aBadFileIsRefusedWithItsProblemsAndTheCapStays() throws {
        let store = InMemoryKeyValueStore()
        let model = SettingsModel(store: SettingsStore(store: store), strings: strings())
        model.importCapLayout(json: Array(Self.clinicCap.utf8), fileName: "clinic.json")
        let before = try #require(try store.value(forKey: CapLayoutStore.key))
        let bad: [(String, String)] = [
            (
                #"{"name": "x", "dictionaryName": "4x4_50", "markerSideMillimetres": 12, "markers": [{"id": 3, "region": "front"}, {"id": 3, "region": "back"}]}"#,
                "marker ID 3 appears more than once"
            ),
            (
                #"{"name": "x", "dictionaryName": "5x5_9000", "markerSideMillimetres": 12, "markers": [{"id": 1, "region": "front"}]}"#,
                "dictionary \"5x5_9000\" is unknown"
            ),
            (
                #"{"name": "x", "dictionaryName": "4x4_50", "markerSideMillimetres": 12, "markers": [{"id": 1, "region": "chin"}]}"#,
                "markers[0].region is not a head region"
            ),
            (#"{"name": "x", "dictionaryName": "4x4_50", "markers": []}"#, "\"markerSideMillimetres\" is missing"),
            ("not json at all", "not valid JSON"),
        ]
        for (text, problem) in bad {
            model.importCapLayout(json: Array(text.utf8), fileName: "bad.json")
            let message = try #require(model.capMessage)
            #expect(message.hasPrefix("bad.json is not a usable cap layout: ") && message.contains(problem), "\(message)")
            #expect(message.hasSuffix("The cap clinic-40 stays in use.") && model.capMessageIsProblem)
            #expect(model.capLayout.name == "clinic-40" && model.settings.markerCount == 40)
            #expect(try store.value(forKey: CapLayoutStore.key) == before)
        }
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-cap-\(UUID().uuidString).json")
        model.importCapLayout(contentsOf: missing)
        #expect(model.capMessage?.hasPrefix("\(missing.lastPathComponent) could not be read: ") == true && model.capLayout.name == "clinic-40")
        // German wording around the file's own problem.
        let german = SettingsModel(store: SettingsStore(store: store), strings: strings(.de))
        german.importCapLayout(json: Array("[]".utf8), fileName: "liste.json")
        #expect(german.capMessage?.hasPrefix("liste.json ist kein brauchbares Mützenlayout: ") == true)
    }

    @Test func backToTheStandardCap() throws {
        let store = InMemoryKeyValueStore()
        let model = SettingsModel(store: SettingsStore(store: store), strings: strings())
        model.importCapLayout(json: Array(Self.clinicCap.utf8), fileName: "clinic.json")
        model.useStandardCap()
        #expect(model.usesStandardCap && model.settings.markerCount == 57 && model.settings.markerSide == 0.014)
        #expect(try store.value(forKey: CapLayoutStore.key) == nil)
        #expect(model.capMessage == "Cap standard-57 in use; markers on the cap and the marker side now match it.")
    }

    @Test func aStoredLayoutThatNoLongerReadsFallsBackToTheStandardCapWithAMessage() {
        let store = InMemoryKeyValueStore([CapLayoutStore.key: .object(["name": .string("broken")])])
        let model = SettingsModel(store: SettingsStore(store: store), strings: strings())
        #expect(model.usesStandardCap && model.capMessageIsProblem)
        #expect(model.capMessage?.hasPrefix("The saved cap layout could not be read; the standard cap is in use.") == true)
    }

    /// The cap chosen in the settings is the one the next scan is recorded with.
    @Test func theNextScanIsRecordedWithTheImportedCap() async throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        let recorder = ScriptedRecorder()
        let deps = AppDependencies(
            library: lib.library, settings: SettingsStore(store: InMemoryKeyValueStore([OnboardingModel.seenKey: .bool(true)])),
            storage: FixedStorageMonitor(), thermal: FixedThermalMonitor(), clock: TestClock(), player: RecordingFeedbackPlayer(),
            makeRecorder: { recorder }, makeReplayPlayer: { _, _ in ScriptedReplayPlayer(overlap: []) })
        let flow = try AppFlowModel(deps)
        #expect(flow.capLayout == .standard)
        flow.home.open(.settings)
        guard case .settings(let settings) = flow.screen else { Issue.record("expected the settings"); return }
        settings.importCapLayout(json: Array(Self.clinicCap.utf8), fileName: "clinic.json")
        flow.goHome()
        flow.home.open(.scan)
        guard case .scan(let scan) = flow.screen else { Issue.record("expected the scan screen"); return }
        await scan.record()
        #expect(recorder.layout?.name == "clinic-40" && recorder.settings?.markerCount == 40)
    }

    /// The header of an app scan keeps the whole layout and every setting; replays use it.
    @Test func theScanHeaderKeepsTheLayoutAndTheSettings() throws {
        let layout = try CapLayout.decode(json: Array(Self.clinicCap.utf8))
        var settings = FeedbackSettings()
        settings.debounceFrames = 6
        let frame = Wall.frame(width: 64, height: 48)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("header-\(UUID().uuidString).hscan")
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try ScanWriter(url: url, header: ScanHeader(device: "iPhone", firstFrame: frame, layout: layout, settings: settings))
        try writer.append(frame)
        try writer.close()
        let header = try ScanReader(url: url).header
        #expect(try header.layout() == layout && header.capLayoutName == "clinic-40")
        #expect(header.settings == settings.headerEntries && header.settings["debounceFrames"] == "6")
        #expect(Set(header.settings.keys) == Set(FeedbackSettings.keys))
        #expect(header.settings["progressIncrement"] == "every25" && header.settings["regionGuidance"] == "true")
        #expect(header.depthIntrinsics == frame.depthIntrinsics)
    }
}
