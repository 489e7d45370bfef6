import Feedback
import Foundation
import Markers
import Recording
import Scanning

/// Replays a scan file through the scan pipeline's detection and guide, so overlap and
/// progress are what they were while recording. Damaged frames are skipped and reported with
/// the next good frame. Frames are read and guided off the main actor.
@MainActor
public final class ScanReplayPlayer: ReplayPlayer {
    private let decoder: ReplayDecoder

    /// A player of the scan at `url` with `settings`; the cap is the one the scan names
    /// unless `layout` is given.
    public init(url: URL, settings: FeedbackSettings, layout: CapLayout? = nil) throws {
        decoder = try ReplayDecoder(url: url, settings: settings, layout: layout)
    }

    /// Frames in the scan.
    public var frameCount: Int { decoder.frameCount }

    public func nextFrame() async throws -> ReplayFrameInfo? {
        let decoder = self.decoder
        return try await Task.detached(priority: .userInitiated) { try decoder.nextFrame() }.value
    }

    public func restart() throws { try decoder.restart() }
}

/// The reader and guide behind a replay; one caller at a time, which its lock ensures.
final class ReplayDecoder: @unchecked Sendable {
    private let lock = NSLock()
    private let reader: ScanReader
    private let settings: FeedbackSettings
    private let layout: CapLayout
    private var guide: FrameGuide
    private var next = 0

    init(url: URL, settings: FeedbackSettings, layout: CapLayout?) throws {
        reader = try ScanReader(url: url)
        self.layout = try layout ?? reader.header.layout()
        self.settings = settings
        guide = try FrameGuide(layout: self.layout, settings: settings)
    }

    var frameCount: Int { reader.frameCount }

    func nextFrame() throws -> ReplayFrameInfo? {
        try lock.withLock {
            var damaged: [Int] = []
            while next < reader.frameCount {
                let index = next
                next += 1
                let frame: RGBDFrame
                do {
                    frame = try reader.frame(at: index)
                } catch {
                    damaged.append(index)
                    continue
                }
                let guided = guide.guide(frame, index: index)
                let update = guided.update
                return ReplayFrameInfo(
                    index: index, overlapSufficient: update.raw.kind == .ideal, percent: update.progress.percent,
                    colour: update.progress.colour, damagedBefore: damaged,
                    cloud: PointCloudPreview(frame: frame, detected: guided.markers, states: update.markerStates))
            }
            guard damaged.isEmpty else { throw ReplayError.damagedAtEnd(damaged) }
            return nil
        }
    }

    func restart() throws {
        try lock.withLock {
            next = 0
            guide = try FrameGuide(layout: layout, settings: settings)
        }
    }
}

/// A replay that cannot go on.
public enum ReplayError: Error, Equatable, LocalizedError {
    /// The last frames of the scan are damaged.
    case damagedAtEnd([Int])

    public var errorDescription: String? {
        switch self {
        case .damagedAtEnd(let frames):
            "the last \(frames.count) frames of the scan are damaged (frames \(frames.map(String.init).joined(separator: ", "))) and were skipped"
        }
    }
}
