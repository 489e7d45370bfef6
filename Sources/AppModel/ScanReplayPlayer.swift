import Feedback
import Foundation
import Markers
import Recording

/// Replays a scan file: each frame's markers are detected and fed to a fresh scan guide, so
/// overlap and progress are what they were while recording.
@MainActor
public final class ScanReplayPlayer: ReplayPlayer {
    private let reader: ScanReader
    private let detector: MarkerDetector
    private let settings: FeedbackSettings
    private let layout: CapLayout
    private var guide: ScanGuide
    private var next = 0

    /// A player of the scan at `url` with `settings` (marker count, thresholds).
    public init(url: URL, settings: FeedbackSettings, layout: CapLayout = .standard) throws {
        reader = try ScanReader(url: url)
        detector = MarkerDetector(dictionary: try layout.dictionary())
        self.settings = settings
        self.layout = layout
        guide = try ScanGuide(settings: settings, layout: layout)
    }

    /// Frames in the scan.
    public var frameCount: Int { reader.frameCount }

    public func nextFrame() throws -> ReplayFrameInfo? {
        guard next < reader.frameCount else { return nil }
        let index = next
        next += 1
        let frame = try reader.frame(at: index)
        let start = reader.timestamp(at: 0) ?? frame.timestamp
        let update = guide.update(FrameObservation(
            timestamp: frame.timestamp - start, width: frame.color.width, height: frame.color.height,
            detected: detector.detect(in: frame.color), depth: frame.depth))
        return ReplayFrameInfo(
            index: index, overlapSufficient: update.raw.kind == .ideal, percent: update.progress.percent,
            colour: update.progress.colour)
    }

    public func restart() throws {
        next = 0
        guide = try ScanGuide(settings: settings, layout: layout)
    }
}
