import Feedback

/// What the replay shows of one frame.
public struct ReplayFrameInfo: Sendable, Equatable {
    /// The frame's index in the scan.
    public var index: Int
    /// Whether the frame overlaps the map enough to annotate (the guide's "ideal").
    public var overlapSufficient: Bool
    /// Progress so far, percent.
    public var percent: Int
    /// Traffic-light colour of the progress bar.
    public var colour: ProgressColour
    /// Damaged frames skipped just before this one.
    public var damagedBefore: [Int]
    /// The frame's point cloud with the markers coloured by state.
    public var cloud: PointCloudPreview?

    /// Information on one frame.
    public init(
        index: Int, overlapSufficient: Bool, percent: Int, colour: ProgressColour, damagedBefore: [Int] = [],
        cloud: PointCloudPreview? = nil
    ) {
        self.index = index
        self.overlapSufficient = overlapSufficient
        self.percent = percent
        self.colour = colour
        self.damagedBefore = damagedBefore
        self.cloud = cloud
    }
}

/// Plays a recorded scan frame by frame through the scan guide.
@MainActor
public protocol ReplayPlayer: AnyObject {
    /// The next frame, nil at the end; decoded away from the main actor, so the screen stays
    /// responsive while a frame is read and guided.
    func nextFrame() async throws -> ReplayFrameInfo?
    /// Starts again from the first frame.
    func restart() throws
}
