import AppSupport
import HeadGestures
import Observation

/// One line of the demo's event list.
public struct GestureDemoEntry: Sendable, Hashable, Identifiable {
    /// Counts up from 1, so that lists can animate insertions.
    public let id: Int
    /// Seconds on the camera's clock.
    public let time: Double
    /// What happened, in the app's language.
    public let text: String
}

/// The idle zone as drawn: centre and radius in upright picture pixels.
public struct IdleZoneDrawing: Sendable, Hashable {
    /// The zone's centre.
    public var centre: SIMD2<Double>
    /// Its radius.
    public var radius: Double
}

/// The head-gesture demo screen: the face's points, the head pointer, the idle zone and the
/// latest events, fed with face frames (from the camera's face detector or a simulation).
@MainActor @Observable
public final class GestureDemoModel {
    /// The upright picture's size in pixels, to scale the drawing.
    public private(set) var imageSize = SIMD2(640.0, 480.0)
    /// Eyes and mouth of the last frame, upright pixels; empty without a face.
    public private(set) var facePoints: [SIMD2<Double>] = []
    /// Where the head points; nil until calibrated or when the face is lost.
    public private(set) var pointer: SIMD2<Double>?
    /// The idle zone; nil until calibrated.
    public private(set) var idleZone: IdleZoneDrawing?
    /// Whether the pointer rests in the idle zone.
    public private(set) var isInIdleZone = true
    /// Calibration progress (0...1) while calibrating, else nil.
    public private(set) var calibrationProgress: Double?
    /// The latest events, newest first, at most `maxEntries`.
    public private(set) var entries: [GestureDemoEntry] = []
    /// Whether looks are shown while they last or after each one.
    public private(set) var mode: GestureMode
    /// Searching, calibrating or tracking.
    public private(set) var state = TrackingState.searching

    /// Why the camera gives no pictures; nil while it runs.
    public private(set) var problem: String?

    /// Events the list keeps.
    public static let maxEntries = 8

    @ObservationIgnored private var engine: GestureEngine
    @ObservationIgnored private let strings: Strings
    @ObservationIgnored private var lastTime = 0.0
    @ObservationIgnored private var nextID = 1

    /// A demo with `settings` (which must be valid) and texts in `strings`' language.
    public init(settings: GestureSettings = GestureSettings(), strings: Strings) throws(GestureError) {
        engine = try GestureEngine(settings: settings)
        mode = settings.mode
        self.strings = strings
    }

    /// The screen's title.
    public var title: String { strings(.gestureTitle) }
    /// The recalibrate button.
    public var recalibrateLabel: String { strings(.gestureRecalibrate) }
    /// The two modes' labels, for a segmented control.
    public func label(for mode: GestureMode) -> String {
        strings(mode == .continuous ? .gestureModeContinuous : .gestureModeDiscrete)
    }

    /// What the person should do now.
    public var status: String {
        switch state {
        case .searching: strings(.gestureStatusNoFace)
        case .calibrating(let progress): strings(.gestureStatusCalibrating, "\(Int((progress * 100).rounded()))")
        case .tracking: strings(.gestureStatusTracking)
        }
    }

    /// The list's heading.
    public var lastEventsTitle: String { strings(.gestureLastEvents) }

    /// The camera could not be started; `reason` says why.
    public func cameraFailed(_ reason: String) { problem = strings(.gestureCameraFailed, reason) }

    /// Takes one frame of the face detector.
    public func receive(_ frame: FaceFrame) {
        if problem != nil { problem = nil }
        lastTime = frame.time
        let size = frame.orientation.uprightSize(width: frame.width, height: frame.height)
        if size.width > 0, size.height > 0 { imageSize = SIMD2(Double(size.width), Double(size.height)) }
        facePoints =
            frame.face.map { face in
                [face.leftEye, face.rightEye, face.mouth].map { frame.orientation.upright($0, width: frame.width, height: frame.height) }
            } ?? []
        show(engine.process(frame), at: frame.time)
    }

    /// Switches between continuous and discrete looks; the calibration stays.
    public func setMode(_ newMode: GestureMode) {
        guard newMode != mode else { return }
        var settings = engine.settings
        settings.mode = newMode
        // The settings were valid and only the mode changed, so applying them cannot fail.
        guard let events = try? engine.apply(settings, time: lastTime) else { return }
        mode = newMode
        show(events, at: lastTime)
    }

    /// Starts calibration again, for when the person has moved; the list does not call this
    /// a lost face.
    public func recalibrate() {
        show(engine.recalibrate(time: lastTime).filter { $0 != .stoppedTracking }, at: lastTime)
    }

    private func show(_ events: [GestureEvent], at time: Double) {
        for event in events {
            if case .moved(let move) = event {
                pointer = move.to
                idleZone = IdleZoneDrawing(centre: move.centre, radius: move.idleRadiusPixels)
                isInIdleZone = move.isInIdleZone
            } else {
                add(event, at: time)
            }
        }
        state = engine.state
        switch state {
        case .tracking:
            calibrationProgress = nil
        case .calibrating(let progress):
            calibrationProgress = progress
            pointer = nil
            idleZone = nil
        case .searching:
            calibrationProgress = nil
            pointer = nil
            idleZone = nil
        }
    }

    private func add(_ event: GestureEvent, at time: Double) {
        let text: String
        switch event {
        case .startedTracking(let centre, let eyes):
            text = strings(.gestureEventStartedTracking)
            pointer = centre
            idleZone = IdleZoneDrawing(centre: centre, radius: engine.settings.idleRadius * eyes)
            isInIdleZone = true
        case .stoppedTracking: text = strings(.gestureEventStoppedTracking)
        case .startedLooking(let d, _): text = strings(.gestureEventStartedLooking, word(d))
        case .stoppedLooking(let d): text = strings(.gestureEventStoppedLooking, word(d))
        case .looked(let d, _): text = strings(.gestureEventLooked, word(d))
        case .nod: text = strings(.gestureEventNod)
        case .shake: text = strings(.gestureEventShake)
        case .moved: return
        }
        entries.insert(GestureDemoEntry(id: nextID, time: time, text: text), at: 0)
        nextID += 1
        if entries.count > Self.maxEntries { entries.removeLast(entries.count - Self.maxEntries) }
    }

    private func word(_ d: GestureDirection) -> String {
        switch d {
        case .left: strings(.gestureDirectionLeft)
        case .right: strings(.gestureDirectionRight)
        case .up: strings(.gestureDirectionUp)
        case .down: strings(.gestureDirectionDown)
        }
    }
}
