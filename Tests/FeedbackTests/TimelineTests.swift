import Feedback
import Testing

@Suite("Feedback timeline")
struct TimelineTests {
    @Test("runs of one published position merge, and the times add up to the scan's length")
    func segments() throws {
        var guide = try ScanGuide(settings: plainSettings { $0.markerCount = 4 }, layout: cap(4))
        var timeline = FeedbackTimeline()
        // Centred markers for a second, then only one marker in the picture's corner.
        let centred = (0..<4).map { marker($0, x: 290 + Double($0 % 2) * 60, y: 210 + Double($0 / 2) * 60) }
        let frames = Array(repeating: centred, count: 30) + Array(repeating: [marker(0, x: 20, y: 20)], count: 30)
        for update in feed(&guide, frames) { timeline.add(update, guide: guide) }
        #expect(abs(timeline.duration - 59.0 / 30) < 1e-9)
        #expect(timeline.segments.first?.position == .ideal)
        #expect(timeline.segments.count == Set(timeline.segments.map(\.start)).count)
        for (a, b) in zip(timeline.segments, timeline.segments.dropFirst()) {
            #expect(a.end == b.start)
            #expect(a.position != b.position)
        }
        let total = PositionClass.allCases.map { timeline.seconds(in: $0) }.reduce(0, +)
        #expect(abs(total - timeline.duration) < 1e-9)
        #expect(timeline.seconds(in: .off) > 0)
        #expect(timeline.progress.last?.percent == 100)
        #expect(timeline.milestones.map(\.percent).last == 100)
        #expect(timeline.completedAt != nil)
        #expect(timeline.missingMarkers.isEmpty)
    }
}
