import Feedback
import Markers
import Recording

/// Marker detection and the scan guide over a stream of frames, feeding the sinks.
///
/// The guide's clock starts at the first frame it sees, so a replay shows the times the
/// operator heard while recording.
public final class FrameGuide {
    /// The cap whose markers are looked for.
    public let layout: CapLayout
    /// The guide after the last frame.
    public private(set) var guide: ScanGuide
    /// Frames guided so far.
    public private(set) var framesGuided = 0

    private let detector: MarkerDetector
    /// Without markers: the head in each frame's depth, and the tracking.
    private let viewer: HeadViewer?
    private let sinks: [any PipelineSink]
    private var origin: Double?
    private var lastTime = 0.0
    private var isPaused = false

    /// A guide for scans with `layout`'s cap under `settings`, telling `sinks`.
    public init(layout: CapLayout, settings: FeedbackSettings, sinks: [any PipelineSink] = []) throws {
        self.layout = layout
        guide = try ScanGuide(settings: settings, layout: layout)
        detector = MarkerDetector(dictionary: try layout.dictionary())
        viewer = settings.withoutMarkers ? HeadViewer() : nil
        self.sinks = sinks
    }

    /// Detects the markers in `frame` and guides on them; without markers (the setting), finds
    /// the head in its depth and tracks it instead.
    @discardableResult
    public func guide(_ frame: RGBDFrame, index: Int) -> GuidedFrame {
        if let viewer {
            let observation = FrameObservation(
                timestamp: frame.timestamp, width: frame.color.width, height: frame.color.height, markers: [],
                head: viewer.view(frame, index: index))
            return guide(observation, index: index, markers: [], frame: frame)
        }
        let markers = detector.detect(in: frame.color)
        let observation = FrameObservation(
            timestamp: frame.timestamp, width: frame.color.width, height: frame.color.height, detected: markers, depth: frame.depth)
        return guide(observation, index: index, markers: markers, frame: frame)
    }

    /// Guides on markers observed some other way (a simulator's exact corners, a log).
    @discardableResult
    public func guide(_ observation: FrameObservation, index: Int, markers: [DetectedMarker] = []) -> GuidedFrame {
        guide(observation, index: index, markers: markers, frame: nil)
    }

    private func guide(_ observation: FrameObservation, index: Int, markers: [DetectedMarker], frame: RGBDFrame?) -> GuidedFrame {
        if isPaused {
            guide.resume()
            isPaused = false
        }
        var relative = observation
        let start = origin ?? observation.timestamp
        origin = start
        relative.timestamp = observation.timestamp - start
        lastTime = relative.timestamp
        let update = guide.update(relative)
        framesGuided += 1
        let guided = GuidedFrame(index: index, markers: markers, update: update, frame: frame)
        for sink in sinks { sink.receive(guided, guide: guide) }
        return guided
    }

    /// Stops feedback until the next frame: the vibration ends at once.
    public func pause() {
        guard !isPaused else { return }
        isPaused = true
        let events = guide.pause()
        for sink in sinks { sink.paused(at: lastTime, events: events) }
    }

    /// Ends the scan: the guide's last events go to the sinks, which finish.
    public func finish() {
        let events = guide.stop()
        for sink in sinks { sink.finish(at: lastTime, events: events, guide: guide) }
    }
}
