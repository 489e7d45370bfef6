import AppModel
import AppModelTesting
import Feedback
import ScanLibrary
import Testing

@MainActor
struct HomeAndInstructionsTests {
    @Test func showsStorageAndThermalState() {
        let thermal = FixedThermalMonitor(.fair)
        let home = HomeModel(
            storage: FixedStorageMonitor(freeBytes: 12_500_000_000), thermal: thermal, player: RecordingFeedbackPlayer(), strings: strings(.de))
        #expect(home.storageText == "12,5 GB frei")
        #expect(home.storageColour == .green && home.storageWarning == nil)
        #expect(home.thermalColour == .green && home.thermalWarning == nil && home.canStartScan)
        home.thermalStateChanged(.critical)
        #expect(home.thermalColour == .red && !home.canStartScan)
        #expect(home.thermalWarning == strings(.de)(.homeThermalWarning))
        thermal.state = .serious
        home.refresh()
        #expect(home.thermalState == .serious && home.thermalColour == .orange)
    }

    @Test func warnsUnderThreeGigabytes() {
        let home = HomeModel(
            storage: FixedStorageMonitor(freeBytes: 2_000_000_000), thermal: FixedThermalMonitor(), player: RecordingFeedbackPlayer(),
            strings: strings())
        #expect(home.storageColour == .red)
        #expect(home.storageWarning == strings()(.homeStorageLow))
    }

    @Test func opensScreensButNotTheScanWhenHot() {
        let home = HomeModel(
            storage: FixedStorageMonitor(freeBytes: 5_000_000_000), thermal: FixedThermalMonitor(.serious), player: RecordingFeedbackPlayer(),
            strings: strings())
        var opened: [HomeDestination] = []
        home.onOpen = { opened.append($0) }
        home.open(.scan)
        home.open(.files)
        home.thermalStateChanged(.nominal)
        home.open(.scan)
        #expect(opened == [.files, .scan])
    }

    @Test func playsATestSound() {
        let player = RecordingFeedbackPlayer()
        HomeModel(storage: FixedStorageMonitor(freeBytes: 5_000_000_000), thermal: FixedThermalMonitor(), player: player, strings: strings(.de))
            .playTestSound()
        #expect(player.played == ["de: " + strings(.de)(.homeTestSoundPhrase)])
    }

    @Test func instructionsDemonstrateEveryFeedback() {
        let player = RecordingFeedbackPlayer()
        var settings = FeedbackSettings()
        settings.phrasing = .headInPicture
        let model = ScanInstructionsModel(settings: settings, player: player, strings: strings())
        #expect(model.entries.map(\.id) == FeedbackKind.allCases)
        #expect(model.entries.allSatisfy { !$0.title.isEmpty && !$0.action.isEmpty && !$0.description.isEmpty })
        model.playDemo(.vibration)
        model.playDemo(.direction)
        model.playDemo(.progress)
        #expect(player.played == ["vibration", "de: Kopf im Bild nach rechts", "de: 25 Prozent"])
    }
}
