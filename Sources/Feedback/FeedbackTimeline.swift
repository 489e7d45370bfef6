/// The course of one scan as the operator experienced it: the published position over time,
/// progress, milestones and completion. Small enough to keep with the scan and draw in the
/// report.
public struct FeedbackTimeline: Sendable, Codable, Equatable {
    /// A stretch of time with one published position class.
    public struct Segment: Sendable, Codable, Equatable {
        /// Seconds since the scan started.
        public var start: Double
        public var end: Double
        public var position: PositionClass

        public init(start: Double, end: Double, position: PositionClass) {
            self.start = start
            self.end = end
            self.position = position
        }
    }

    /// A progress sample, one per change of the percentage.
    public struct ProgressPoint: Sendable, Codable, Equatable {
        public var time: Double
        public var percent: Int

        public init(time: Double, percent: Int) {
            self.time = time
            self.percent = percent
        }
    }

    /// A milestone announced to the operator.
    public struct Milestone: Sendable, Codable, Equatable {
        public var time: Double
        public var percent: Int

        public init(time: Double, percent: Int) {
            self.time = time
            self.percent = percent
        }
    }

    /// Seconds from the first to the last frame.
    public var duration = 0.0
    /// The published position, merged into runs.
    public var segments: [Segment] = []
    /// Progress whenever it changed.
    public var progress: [ProgressPoint] = []
    /// Milestones in order.
    public var milestones: [Milestone] = []
    /// Seconds to completion; nil when the scan never completed.
    public var completedAt: Double?
    /// Cap markers not seen when the scan completed or ended.
    public var missingMarkers: [Int] = []

    private var start: Double?

    private enum CodingKeys: String, CodingKey {
        case duration, segments, progress, milestones, completedAt, missingMarkers
    }

    /// An empty timeline.
    public init() {}

    /// Adds one frame's update; a frame's position lasts until the next frame.
    public mutating func add(_ update: GuidanceUpdate, guide: ScanGuide) {
        let origin = start ?? update.time
        start = origin
        let t = update.time - origin
        duration = t
        if let last = segments.indices.last {
            segments[last].end = t
        }
        if segments.last?.position != update.published.kind {
            segments.append(Segment(start: t, end: t, position: update.published.kind))
        }
        if progress.last?.percent != update.progress.percent {
            progress.append(ProgressPoint(time: t, percent: update.progress.percent))
        }
        for event in update.events {
            switch event {
            case .milestone(let percent): milestones.append(Milestone(time: t, percent: percent))
            case .completed(let missing):
                completedAt = t
                missingMarkers = missing
            default: break
            }
        }
        if completedAt == nil { missingMarkers = guide.missingIDs }
    }

    /// Seconds spent in `position`.
    public func seconds(in position: PositionClass) -> Double {
        segments.filter { $0.position == position }.reduce(0) { $0 + ($1.end - $1.start) }
    }
}
