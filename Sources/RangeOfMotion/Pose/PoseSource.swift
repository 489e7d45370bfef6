import Foundation

/// Where a video's poses come from: on Apple platforms Vision's body-pose request over a
/// recorded or picked video, sampled at the settings' rate; elsewhere a pose file.
public protocol PoseSource: Sendable {
    /// The poses of `video`, about `framesPerSecond` frames per second of it; `progress`
    /// hears (frames done, frames in all) as the work goes on.
    func poses(
        of video: URL, framesPerSecond: Double, progress: @escaping @MainActor @Sendable (Int, Int) -> Void
    ) async throws -> PoseSequence
}

/// Poses from a pose file (the format `headscan rom analyze` reads), thinned to the rate.
public struct PoseFileSource: PoseSource {
    public init() {}

    public func poses(
        of file: URL, framesPerSecond: Double, progress: @escaping @MainActor @Sendable (Int, Int) -> Void
    ) async throws -> PoseSequence {
        let data: Data
        do { data = try Data(contentsOf: file) } catch {
            throw RangeOfMotionError.unreadablePoses("\(file.lastPathComponent) cannot be opened: \(error.localizedDescription)")
        }
        let poses = try PoseSequence.decode(json: data).sampled(framesPerSecond: framesPerSecond)
        await progress(poses.frames.count, poses.frames.count)
        return poses
    }
}
