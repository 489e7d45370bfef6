import AppModel
import AppModelTesting
import ChildProcesses
import Feedback
import Foundation
import Markers
import ScanLibrary
import Testing

@MainActor
struct ScanSummaryAndFilesTests {
    @Test func theBarTurnsGreenOnlyWhenDoneIsSaid() {
        #expect(ScanProgressReport(percent: 100, colour: .green).barColour == .orange)
        #expect(ScanProgressReport(percent: 93, colour: .orange, completed: true).barColour == .green)
        #expect(ScanProgressReport(percent: 30, colour: .red).barColour == .red)
    }

    @Test func theSummarySaysWhatWasCapturedAndWhatIsMissing() async throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        let recorder = ScriptedRecorder()
        let model = ScanModel(
            library: lib.library, recorder: recorder, storage: FixedStorageMonitor(freeBytes: 10_000_000_000), thermal: FixedThermalMonitor(),
            settings: FeedbackSettings(), clock: TestClock(), strings: strings())
        await model.record()
        #expect(model.summary.isEmpty)
        recorder.send(
            ScanProgressReport(
                percent: 91, colour: .orange, completed: true, regionsCovered: [.front, .left, .right, .back, .top],
                featuresSeen: [.face, .leftEar], missingMarkers: [12, 40]))
        await model.stop()
        #expect(
            model.summary == [
                "Covered: forehead, left side, right side, back of the head, top of the head.",
                "Not in the scan: right ear.",
                "2 markers never seen: 12, 40.",
            ])
    }

    /// Without stickers the summary gives the share of the head's surface seen, never markers.
    @Test func withoutStickersTheSummaryGivesTheSurfaceSeen() async throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        let recorder = ScriptedRecorder()
        var settings = FeedbackSettings()
        settings.withoutMarkers = true
        let model = ScanModel(
            library: lib.library, recorder: recorder, storage: FixedStorageMonitor(freeBytes: 10_000_000_000), thermal: FixedThermalMonitor(),
            settings: settings, clock: TestClock(), strings: strings())
        await model.record()
        var report = ScanProgressReport(
            percent: 88, colour: .orange, completed: true, regionsCovered: [.front, .left, .right, .back, .top],
            featuresSeen: HeadFeature.allCases)
        report.withoutMarkers = true
        recorder.send(report)
        await model.stop()
        #expect(
            model.summary == [
                "Covered: forehead, left side, right side, back of the head, top of the head.",
                "Ears and face: all in the scan.",
                "88 % of the head's surface was seen (scanned without stickers).",
            ])
    }

    @Test func filesShowConsentAndPackASessionAsAZip() throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        let session = try lib.savedSession(id: 8)
        try Data("a measured head".utf8).write(to: session.meshURL)
        let files = FilesModel(library: lib.library, strings: strings())
        #expect(files.rows.first?.status.contains("research: not asked") == true)
        try lib.library.saveConsent(ConsentRecord(researchUse: false, decidedAt: Date(), recordedBy: "test"), in: session)
        files.reload()
        #expect(files.rows.first?.status.contains("research: no") == true)

        let zip = try #require(files.archive(files.rows[0], into: lib.folder))
        let unzipped = lib.folder.appendingPathComponent("unzipped")
        try FileManager.default.createDirectory(at: unzipped, withIntermediateDirectories: true)
        let unzip = Process()
        unzip.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        unzip.arguments = [
            "python3", "-c", "import zipfile,sys; z=zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; z.extractall(sys.argv[2])", zip.path,
            unzipped.path,
        ]
        try unzip.run(input: nil, output: nil, errors: nil)
        #expect(unzip.waitForEnd() == .exited(0), "python's zipfile reads the archive and every CRC matches")
        let copy = unzipped.appendingPathComponent(session.name.rawValue)
        #expect(try Data(contentsOf: copy.appendingPathComponent("head.ply")) == Data("a measured head".utf8))
        #expect(
            try Data(contentsOf: copy.appendingPathComponent("consent.json")) == Data(contentsOf: session.url.appendingPathComponent("consent.json")))
    }

    /// A scan's zip is packed off the main actor and removed when the share sheet closes.
    @Test func sharingPacksOffTheMainActorAndRemovesTheTemporaryZip() async throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        _ = try lib.savedSession(id: 8)
        let files = FilesModel(library: lib.library, strings: strings())
        let row = try #require(files.rows.first)
        await files.share(row, into: lib.folder)
        let zip = try #require(files.sharedArchive)
        #expect(FileManager.default.fileExists(atPath: zip.path) && !files.isPacking)
        files.sharingEnded()
        #expect(files.sharedArchive == nil && !FileManager.default.fileExists(atPath: zip.path))
        #expect(try lib.library.list().entries.count == 1)
    }
}
