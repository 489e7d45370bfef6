import Feedback
import Foundation
import Markers
import Recording
import Scanning
import Testing

struct ScanPipelineTests {
    @Test func replayGuidesEveryReadableFrameAndReportsTheDamagedOne() async throws {
        let recordings = try Recordings()
        defer { recordings.remove() }
        let writer = try recordings.writer("damaged.hscan")
        for index in 0..<7 { try writer.append(recordings.frame(index)) }
        try writer.close()
        // Flip a byte in the middle of the file: inside one frame's record.
        var bytes = try Data(contentsOf: writer.url)
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: writer.url)
        let reader = try ScanReader(url: writer.url)
        let broken = reader.verify()
        #expect(broken.count == 1)

        let tape = Tape()
        let pipeline = ScanPipeline(guide: try FrameGuide(layout: .standard, settings: FeedbackSettings(), sinks: [tape]))
        try await pipeline.run(ReplaySource(reader: reader, pacing: .asFastAsPossible))
        pipeline.guide.finish()
        #expect(pipeline.damaged == broken)
        #expect(tape.indices.count == 6)
        // Frames keep their numbers in the file; the damaged one is missing.
        #expect(Set(tape.indices).union([brokenIndex(broken[0])]) == Set(0..<7))
        #expect(tape.finished)
    }

    @Test func pauseStopsTheVibrationAndDropsFramesAndResumeContinuesTheFile() throws {
        let recordings = try Recordings()
        defer { recordings.remove() }
        let tape = Tape()
        let writer = try recordings.writer("paused.hscan")
        let pipeline = ScanPipeline(guide: try FrameGuide(layout: .standard, settings: FeedbackSettings(), sinks: [tape]), writer: writer)
        for index in 0..<6 { try pipeline.process(recordings.frame(index)) }
        #expect(tape.events.contains(.hapticStart))
        pipeline.pause()
        #expect(tape.events.last == .hapticStop)
        #expect(tape.pauses == 1)
        #expect(try pipeline.process(recordings.frame(6)) == nil)
        pipeline.resume()
        for index in 7..<9 { try pipeline.process(recordings.frame(index)) }
        try pipeline.finish()
        let reader = try ScanReader(url: writer.url)
        #expect(reader.frameCount == 8)
        #expect(try reader.frame(at: 6).timestamp == recordings.frame(7).timestamp)
    }

    /// The app draws each guided frame as a point cloud, so sinks get the pictures; an
    /// observation guided without pictures has none to give.
    @Test func sinksSeeTheFrameTheyGuideOnlyWhenThereIsOne() throws {
        let recordings = try Recordings()
        defer { recordings.remove() }
        let guide = try FrameGuide(layout: .standard, settings: FeedbackSettings())
        let frame = recordings.frame(3)
        let guided = guide.guide(frame, index: 3)
        #expect(guided.frame?.timestamp == frame.timestamp && guided.frame?.depth == frame.depth)
        let observation = FrameObservation(timestamp: 1, width: 64, height: 48, markers: [])
        #expect(guide.guide(observation, index: 4).frame == nil)
    }

    @Test func everyCapNameTheToolWritesResolves() throws {
        for name in ["standard-57", "standard", "none", "unknown", ""] {
            #expect(try CapLayout.named(name) == .standard)
        }
        #expect(throws: MarkerError.self) { try CapLayout.named("clinic-cap-2") }
    }

    private func brokenIndex(_ error: ScanFileError) -> Int {
        if case .damagedFrame(let index, _) = error { return index }
        Issue.record("expected a damaged frame, got \(error)")
        return -1
    }
}
