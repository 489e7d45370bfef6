import Feedback
import Markers
import Recording

/// One frame after detection and the guide: what every sink sees.
public struct GuidedFrame: Sendable {
    /// The frame's number in the source, from 0 (frames skipped while catching up count too).
    public var index: Int
    /// The markers found in the colour image; empty when the observation came without an image.
    public var markers: [DetectedMarker]
    /// The guide's verdict on the frame.
    public var update: GuidanceUpdate
    /// The frame itself when it was guided from its pictures (camera, scan file), so a live
    /// view can draw it; nil for observations made some other way.
    public var frame: RGBDFrame?
}

/// Something that acts on the guide's verdicts: vibration, speech, a progress bar, a log, a
/// simulated operator. Live scanning, replay and the command line differ only in their sinks.
public protocol PipelineSink: AnyObject {
    /// One guided frame, in order. `guide` is the guide after the frame.
    func receive(_ frame: GuidedFrame, guide: ScanGuide)
    /// Scanning paused: feedback must stop until the next frame arrives (`events` are the
    /// guide's own stop events, such as "vibration off").
    func paused(at time: Double, events: [FeedbackEvent])
    /// The scan ended at `time`; `events` are the guide's last ones.
    func finish(at time: Double, events: [FeedbackEvent], guide: ScanGuide)
}

extension PipelineSink {
    public func paused(at time: Double, events: [FeedbackEvent]) {}
    public func finish(at time: Double, events: [FeedbackEvent], guide: ScanGuide) {}
}

/// Hands the feedback events of every frame to a `FeedbackSink` (console, speech, haptics).
public final class FeedbackEventSink<Sink: FeedbackSink>: PipelineSink {
    /// The wrapped sink, with everything it received.
    public private(set) var sink: Sink

    /// A pipeline sink feeding `sink`.
    public init(_ sink: Sink) { self.sink = sink }

    public func receive(_ frame: GuidedFrame, guide: ScanGuide) {
        for event in frame.update.events { sink.receive(TimedFeedbackEvent(time: frame.update.time, event: event)) }
    }

    public func paused(at time: Double, events: [FeedbackEvent]) {
        for event in events { sink.receive(TimedFeedbackEvent(time: time, event: event)) }
    }

    public func finish(at time: Double, events: [FeedbackEvent], guide: ScanGuide) {
        for event in events { sink.receive(TimedFeedbackEvent(time: time, event: event)) }
        sink.finish(at: time)
    }
}

/// Collects the timeline and the summary of a scan, as the report and the scan summary show them.
public final class RecordSink: PipelineSink {
    /// Position, progress and milestones over time.
    public private(set) var timeline = FeedbackTimeline()
    /// Time in each class, milestones, completion, missing markers.
    public private(set) var summary = GuideSummary()
    /// Every feedback event with its time, in order.
    public private(set) var events: [TimedFeedbackEvent] = []

    /// An empty record.
    public init() {}

    public func receive(_ frame: GuidedFrame, guide: ScanGuide) {
        timeline.add(frame.update, guide: guide)
        summary.add(frame.update, guide: guide)
        events += frame.update.events.map { TimedFeedbackEvent(time: frame.update.time, event: $0) }
    }

    public func paused(at time: Double, events: [FeedbackEvent]) {
        self.events += events.map { TimedFeedbackEvent(time: time, event: $0) }
    }

    public func finish(at time: Double, events: [FeedbackEvent], guide: ScanGuide) {
        self.events += events.map { TimedFeedbackEvent(time: time, event: $0) }
    }
}

/// A sink made of a closure, for small jobs such as a progress bar or a steering operator.
public final class ClosureSink: PipelineSink {
    private let body: (GuidedFrame, ScanGuide) -> Void

    /// Calls `body` for every guided frame.
    public init(_ body: @escaping (GuidedFrame, ScanGuide) -> Void) { self.body = body }

    public func receive(_ frame: GuidedFrame, guide: ScanGuide) { body(frame, guide) }
}
