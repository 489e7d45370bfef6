import Feedback
import Foundation

/// Records a scan: camera frames through the scan guide into the scan file, with feedback.
///
/// On iOS it wraps the TrueDepth capture and the haptic and speech sinks; the model only
/// starts, pauses and stops it and shows the progress it reports.
@MainActor
public protocol ScanRecorder: AnyObject {
    /// Starts the camera, the feedback and writing `url` with `settings`; `progress` is
    /// called for every guidance update.
    func start(writingTo url: URL, settings: FeedbackSettings, progress: @escaping @MainActor (ScanProgressReport) -> Void) async throws
    /// Stops feedback and the camera (the sensor cools) without ending the file.
    func pause() async
    /// Turns camera and feedback on again.
    func resume() async throws
    /// Ends and closes the scan file.
    func stop() async throws
}

/// What the scan screen shows of the guide's progress.
public struct ScanProgressReport: Sendable, Equatable {
    /// Unique markers seen / markers on the cap, percent.
    public var percent: Int
    /// Traffic-light colour of the progress bar.
    public var colour: ProgressColour
    /// Whether the guide announced completion.
    public var completed: Bool

    /// A report from its values.
    public init(percent: Int, colour: ProgressColour, completed: Bool = false) {
        self.percent = percent
        self.colour = colour
        self.completed = completed
    }
}
