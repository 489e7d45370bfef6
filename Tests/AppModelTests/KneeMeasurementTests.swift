import AppModel
import AppModelTesting
import Feedback
import Foundation
import KneeFeature
import RangeOfMotion
import Testing

/// A pose source that plays back prepared outcomes, one per call, reporting progress frame
/// by frame.
final class FakePoseSource: PoseSource, @unchecked Sendable {
    private let lock = NSLock()
    private var outcomes: [Result<PoseSequence, any Error>]
    private(set) var calls: [URL] = []

    init(_ outcomes: [Result<PoseSequence, any Error>]) { self.outcomes = outcomes }

    func poses(of video: URL, framesPerSecond: Double, progress: @escaping @MainActor @Sendable (Int, Int) -> Void) async throws -> PoseSequence {
        let outcome = lock.withLock {
            calls.append(video)
            return outcomes.count > 1 ? outcomes.removeFirst() : outcomes[0]
        }
        let poses = try outcome.get()
        for done in 1...poses.frames.count { await progress(done, poses.frames.count) }
        return poses
    }
}

struct VideoUnreadable: LocalizedError {
    var errorDescription: String? { "the file is not a video" }
}

/// A simulated video of the knee on `side`; spoiled enough to be refused when `refused`.
private func video(_ side: BodySide, refused: Bool = false) -> PoseSequence {
    var s = LegSimulation()
    s.leg.side = side
    s.leg.motion.extensionDegrees = 0
    s.leg.motion.flexionDegrees = 120
    if refused {
        s.corruptedShare = 0.6
        s.corruptions = [.lowConfidence]
    }
    return LegSimulator(s).video(seed: 11).poses
}

@MainActor
struct KneeMeasurementTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("knee-model-\(UUID().uuidString)")
    let clip = URL(fileURLWithPath: "/videos/knee.mov")

    private func model(_ source: FakePoseSource, language: Language = .en) throws -> KneeMeasurementModel {
        try KneeMeasurementModel(
            patientID: "12", store: RangeOfMotionStore(root: root), source: source, clock: TestClock(), strings: strings(language))
    }

    @Test func measuresAKneeThroughEveryScreen() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let source = FakePoseSource([.success(video(.right))])
        let flow = try model(source)
        #expect(flow.screen == .welcome && flow.past.isEmpty)
        flow.start()
        #expect(flow.screen == .instructions && flow.instructionSteps.count == 4)
        flow.showSidePicker()
        #expect(flow.sideChoices.map(\.title) == ["Left", "Right"])
        flow.choose(.right)
        await flow.analyse(video: clip)
        #expect(flow.screen == .result && flow.failure == nil)
        #expect(flow.progress == KneeProgress(done: 60, total: 60) && flow.progressText == "Frame 60 of 60")
        let result = try #require(flow.result)
        // The video bends 0-0-120; the straight end reads within a degree of it (0-0-120 or 0-1-120).
        #expect(["Right knee, extension/flexion 0-0-12", "Right knee, extension/flexion 0-1-12"].contains { result.headline.hasPrefix($0) })
        #expect(result.mostBent.hasPrefix("Most bent: ") && result.frames.hasSuffix("of 60 frames used"))
        // The fitted extremes say how sure they are.
        #expect(result.mostBentFrame.uncertainty != nil)
        #expect(result.mostBent.contains(" ± ") == (result.mostBentFrame.uncertainty != nil))
        #expect(result.straightest.contains(" ± ") == (result.straightestFrame.uncertainty != nil))
        #expect(
            flow.past.count == 1 && flow.past[0].side == "Right" && (flow.past[0].form.hasPrefix("0-0-12") || flow.past[0].form.hasPrefix("0-1-12")))
        let pdf = try #require(flow.reportPDF())
        #expect(String(decoding: pdf.prefix(8), as: UTF8.self) == "%PDF-1.4")
        flow.done()
        #expect(flow.screen == .welcome && flow.past.count == 1)
    }

    @Test func aRefusedVideoFailsWithTheReasonAndCanBeRetried() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let source = FakePoseSource([.success(video(.left, refused: true)), .success(video(.left))])
        let flow = try model(source, language: .de)
        flow.start()
        flow.showSidePicker()
        await flow.analyse(video: clip)
        #expect(flow.screen == .processing && flow.result == nil)
        let failure = try #require(flow.failure)
        #expect(failure.title == "Das Video konnte nicht ausgewertet werden")
        #expect(failure.message.hasPrefix("Nur ") && failure.message.contains("55 % sind nötig"))
        #expect(flow.past.isEmpty)
        await flow.retry()
        #expect(flow.screen == .result && flow.failure == nil && source.calls == [clip, clip])
        let headline = try #require(flow.result?.headline)
        #expect(headline.hasPrefix("Linkes Knie, Streckung/Beugung "), "\(headline)")
        #expect(flow.past.count == 1)
    }

    @Test func anUnreadableVideoFailsAndCancelGoesBackToTheSidePicker() async throws {
        let flow = try model(FakePoseSource([.failure(VideoUnreadable())]))
        await flow.analyse(video: clip)
        #expect(flow.failure?.message == "The video could not be read: the file is not a video")
        flow.cancel()
        #expect(flow.screen == .sidePicker && flow.failure == nil && flow.progress == nil)
    }

    @Test func historyListsEarlierResultsNewestFirstAndOpensThem() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let store = RangeOfMotionStore(root: root)
        let analyzer = try RangeOfMotionAnalyzer()
        try store.save(analyzer.analyze(video(.left), side: .left), patientID: "12", date: Date(timeIntervalSince1970: 1_700_000_000), source: "a")
        try store.save(analyzer.analyze(video(.right), side: .right), patientID: "12", date: Date(timeIntervalSince1970: 1_760_000_000), source: "b")
        let flow = try model(FakePoseSource([.failure(VideoUnreadable())]), language: .de)
        #expect(flow.past.map(\.side) == ["Rechts", "Links"])
        #expect(flow.past[0].date.wholeMatch(of: /\d\d\.\d\d\.2025 \d\d:\d\d/) != nil)
        flow.showHistory()
        #expect(flow.screen == .history)
        flow.open(flow.past[1])
        #expect(flow.screen == .result && flow.result?.headline.hasPrefix("Linkes Knie, Streckung/Beugung") == true)
    }

    @Test func aPatientIDMustNameAFolder() {
        #expect(throws: RangeOfMotionError.invalidPatientID("../x")) {
            try KneeMeasurementModel(
                patientID: "../x", store: RangeOfMotionStore(root: root), source: FakePoseSource([]), clock: TestClock(), strings: strings())
        }
    }
}
