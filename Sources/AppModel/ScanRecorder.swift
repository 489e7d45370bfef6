import Feedback
import Foundation
import Markers
import Scanning

/// Records a scan: camera frames through the scan guide into the scan file, with feedback.
///
/// On iOS it wraps the TrueDepth capture and the haptic and speech sinks; the model only
/// starts, pauses and stops it and shows the progress it reports.
@MainActor
public protocol ScanRecorder: AnyObject {
    /// Starts the camera, the feedback and writing `url` with `settings` for a cap laid out
    /// as `layout` (the scan's header keeps it); `progress` is called for every guidance update
    /// and `problem` as soon as capture or writing goes wrong during the recording.
    func start(
        writingTo url: URL, settings: FeedbackSettings, layout: CapLayout, progress: @escaping @MainActor (ScanProgressReport) -> Void,
        problem: @escaping @MainActor (CaptureProblem) -> Void
    ) async throws
    /// Runs the camera and the feedback (vibration, speech, point cloud) before recording,
    /// writing nothing, so the therapist finds the head first; `start` then records without
    /// stopping the camera.
    func preview(
        settings: FeedbackSettings, layout: CapLayout, progress: @escaping @MainActor (ScanProgressReport) -> Void,
        problem: @escaping @MainActor (CaptureProblem) -> Void
    ) async throws
    /// Ends a preview that was not followed by a recording: camera and feedback off.
    func stopPreview() async
    /// Stops feedback and the camera (the sensor cools) without ending the file.
    func pause() async
    /// Turns camera and feedback on again.
    func resume() async throws
    /// Ends and closes the scan file.
    func stop() async throws
    /// Vibrates the alarm pattern (short hard taps, unlike the continuous "position"
    /// vibration): capture or writing has failed, and the operator may not see the screen.
    func alarm()
}

/// Why recording could not start, in terms the scan screen says in the app's language.
public enum CameraFailure: Error, Sendable, Equatable {
    case notAuthorized
    case noTrueDepthCamera
    case noDepthFormat
    /// The capture session refused a part of its set-up, named in the system's words.
    case setupFailed(String)
    case noFrames
}

/// What went wrong while recording, as the recorder notices it.
public enum CaptureProblem: Sendable, Equatable {
    /// The camera stopped delivering frames: no frame for a second, the session was
    /// interrupted (a call, another app) or failed; the reason in the system's words, if any.
    case cameraStopped(reason: String?)
    /// Frames arrive again.
    case cameraBack
    /// The camera's sensor is getting too warm: frames will be dropped and the camera may
    /// stop soon.
    case sensorTooWarm
    /// The scan file cannot be written (a full disk): the recording is over; what was
    /// written up to the last complete frame is kept.
    case writeFailed(String)
}

/// What the scan screen shows of the guide's progress, and the summary after the scan.
public struct ScanProgressReport: Sendable, Equatable {
    /// Unique markers seen / markers on the cap, percent.
    public var percent: Int
    /// Traffic-light colour of the progress bar by share of markers seen.
    public var colour: ProgressColour
    /// Whether the guide announced completion ("done" was said).
    public var completed: Bool
    /// Regions of the head covered so far.
    public var regionsCovered: [HeadRegion]
    /// Ears and face seen in the picture so far.
    public var featuresSeen: [HeadFeature]
    /// Cap markers never seen (fallen off, or not scanned yet); none when scanning without
    /// stickers.
    public var missingMarkers: [Int]
    /// Whether the guide followed the head's surface (scanning without stickers): `percent`
    /// is then the share of the head's surface seen.
    public var withoutMarkers = false
    /// The latest frame's point cloud with the markers coloured by state; nil before the first.
    public var cloud: PointCloudPreview?
    /// Frames the camera delivered that were not saved because writing lagged behind.
    public var framesNotWritten = 0

    /// A report from its values.
    public init(
        percent: Int, colour: ProgressColour, completed: Bool = false, regionsCovered: [HeadRegion] = [],
        featuresSeen: [HeadFeature] = [], missingMarkers: [Int] = [], cloud: PointCloudPreview? = nil
    ) {
        self.percent = percent
        self.colour = colour
        self.completed = completed
        self.regionsCovered = regionsCovered
        self.featuresSeen = featuresSeen
        self.missingMarkers = missingMarkers
        self.cloud = cloud
    }

    /// The report on a guided frame: the guide's progress, and the frame's cloud when the
    /// frame came with its pictures.
    public init(guided: GuidedFrame, guide: ScanGuide, maxPoints: Int = PointCloudPreview.defaultMaxPoints) {
        let p = guided.update.progress
        self.init(
            percent: p.percent, colour: p.colour, completed: guide.completed, regionsCovered: p.regionsCovered,
            featuresSeen: p.featuresSeen, missingMarkers: guide.missingIDs,
            cloud: guided.frame.map {
                PointCloudPreview(frame: $0, detected: guided.markers, states: guided.update.markerStates, maxPoints: maxPoints)
            })
        withoutMarkers = guide.followsSurface
    }

    /// The markers by state: those in the latest frame and those seen before.
    public var markers: [CloudMarker] { cloud?.markers ?? [] }

    /// The bar's colour: green only once "done" was said, even when every marker was seen
    /// (the guide may still wait for an ear or the face).
    public var barColour: ProgressColour {
        if completed { return .green }
        return colour == .green ? .orange : colour
    }
}

/// Hands the scan screen a report on every guided frame: the live recorder's progress.
public final class ScanProgressSink: PipelineSink {
    private let maxPoints: Int
    private let report: (ScanProgressReport) -> Void

    /// A sink calling `report` on the guide's thread; clouds keep at most `maxPoints` points.
    public init(maxPoints: Int = PointCloudPreview.defaultMaxPoints, report: @escaping (ScanProgressReport) -> Void) {
        self.maxPoints = maxPoints
        self.report = report
    }

    public func receive(_ frame: GuidedFrame, guide: ScanGuide) {
        report(ScanProgressReport(guided: frame, guide: guide, maxPoints: maxPoints))
    }
}

extension FeedbackSettings {
    /// Every setting by its JSON key as text ("57", "every25", "0.3", "true"), as a scan's
    /// header records the settings in force.
    public var headerEntries: [String: String] {
        var entries: [String: String] = [:]
        for child in Mirror(reflecting: self).children {
            guard let key = child.label else { continue }
            entries[key] = "\(child.value)"
        }
        return entries
    }
}
