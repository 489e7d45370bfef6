import AppModel

/// A replay of made-up frames: which of them overlap enough to annotate, each with the same
/// cloud when one is given.
@MainActor
public final class ScriptedReplayPlayer: ReplayPlayer {
    /// Whether each frame overlaps enough, in order.
    public let overlap: [Bool]
    /// The cloud every frame shows.
    public let cloud: PointCloudPreview?
    private var next = 0

    /// A replay of `overlap.count` frames; frame i is at i·10 %.
    public init(overlap: [Bool], cloud: PointCloudPreview? = nil) {
        self.overlap = overlap
        self.cloud = cloud
    }

    public func nextFrame() async throws -> ReplayFrameInfo? {
        guard next < overlap.count else { return nil }
        defer { next += 1 }
        return ReplayFrameInfo(index: next, overlapSufficient: overlap[next], percent: next * 10, colour: .red, cloud: cloud)
    }

    public func restart() throws { next = 0 }
}
