import Foundation

/// Where the engine is with a face.
public enum TrackingState: Sendable, Hashable {
    /// No face yet, or it was lost.
    case searching
    /// Collecting steady samples; `progress` runs from 0 to 1.
    case calibrating(progress: Double)
    /// Calibrated: gestures are recognised.
    case tracking
}

/// How many frames went which way, for summaries.
public struct FrameCounts: Sendable, Hashable, Codable {
    /// Every frame given to the engine.
    public var frames = 0
    /// Frames analysed (not skipped by the detection rate or a bad time).
    public var analysed = 0
    /// Analysed frames without a face.
    public var withoutFace = 0
    /// Analysed frames whose eyes and mouth gave no usable pointer.
    public var degenerate = 0
    /// Frames skipped to keep to the detection rate.
    public var skippedByRate = 0
    /// Frames whose time was not after the previous frame's, or not finite.
    public var badTime = 0
    /// Calibrations that finished.
    public var calibrations = 0
    /// Calibration restarts because the pointer jumped.
    public var calibrationRestarts = 0

    /// No frames yet.
    public init() {}
}

/// Head gestures from face landmarks, frame by frame: calibration, idle zone, looks, nods and
/// shakes. A value type without clocks or threads, so that replay, tests and the app run the
/// same code; `GestureTracker` adds the delegate and the event stream.
public struct GestureEngine: Sendable {
    /// The settings in force.
    public private(set) var settings: GestureSettings
    /// The latest calibration, if any.
    public private(set) var calibration: Calibration?
    /// What happened to the frames so far.
    public private(set) var counts = FrameCounts()

    private var calibrator: Calibrator
    private var zone: IdleZone
    private var recognizer: NodShakeRecognizer
    private var sway: RestingSway?
    private var pendingRest: [(dt: Double, offset: SIMD2<Double>)] = []
    private var isTracking = false
    private var centre = SIMD2<Double>.zero
    private var scale = 1.0
    private var slowLogScale = 0.0
    private var lastTime: Double?
    private var lastAnalysed: Double?
    private var lastFaceTime: Double?
    private var lastPointer: SIMD2<Double>?

    /// Seconds over which the face's size is smoothed: landmark noise must not wobble the
    /// scale, while leaning in takes far longer than this.
    static let scaleSeconds = 0.2
    /// A slower average of the size; the two differ while the face comes closer or recedes.
    static let slowScaleSeconds = 0.4
    /// Above this rate of change of the face's size (per second) the head is moving in depth.
    static let depthRate = 0.15
    /// Time constant with which the centre follows a resting head that moves in depth: off
    /// the camera's axis, coming closer shifts the face in the picture.
    static let depthFollowSeconds = 0.25

    /// An engine with `settings`, which must be valid.
    public init(settings: GestureSettings = GestureSettings()) throws(GestureError) {
        try settings.validate()
        self.settings = settings
        calibrator = Calibrator(samplesNeeded: settings.calibrationSamples, jump: settings.calibrationJump)
        zone = IdleZone(settings: settings)
        recognizer = NodShakeRecognizer(settings: settings)
    }

    /// Where the engine is with the face.
    public var state: TrackingState {
        if isTracking { return .tracking }
        return calibrator.samples.isEmpty ? .searching : .calibrating(progress: calibrator.progress)
    }

    /// The idle zone's centre while tracking (it follows a slowly drifting head).
    public var currentCentre: SIMD2<Double>? { isTracking ? centre : nil }

    /// The reach a swing of a nod or shake needs now, horizontally and vertically, eye
    /// distances: the resting sway's multiple within the floor and the movement threshold.
    public var swingThresholds: SIMD2<Double>? { isTracking ? sway?.thresholds : nil }

    /// The events of one frame.
    public mutating func process(_ frame: FaceFrame) -> [GestureEvent] {
        var events: [GestureEvent] = []
        process(frame, into: &events)
        return events
    }

    /// Appends the events of one frame to `events` (no allocation when it has room).
    public mutating func process(_ frame: FaceFrame, into events: inout [GestureEvent]) {
        counts.frames += 1
        if !frame.time.isFinite || lastTime.map({ !(frame.time > $0) }) == true {
            counts.badTime += 1
            return
        }
        lastTime = frame.time
        if settings.detectionRate > 0, let last = lastAnalysed, frame.time - last < 0.9 / settings.detectionRate {
            counts.skippedByRate += 1
            return
        }
        let previous = lastAnalysed
        lastAnalysed = frame.time
        counts.analysed += 1
        guard let pointer = measure(frame) else {
            missingFace(at: frame.time, events: &events)
            return
        }
        lastFaceTime = frame.time
        if isTracking {
            track(pointer, time: frame.time, since: previous, events: &events)
        } else {
            calibrate(pointer, time: frame.time, events: &events)
        }
    }

    /// Starts calibration again, ending any look under way.
    public mutating func recalibrate(time: Double) -> [GestureEvent] {
        var events: [GestureEvent] = []
        stopTracking(time: time, events: &events)
        calibrator.reset()
        return events
    }

    /// Changes the settings while running; the calibration stays, a look under way ends.
    public mutating func apply(_ newSettings: GestureSettings, time: Double) throws(GestureError) -> [GestureEvent] {
        try newSettings.validate()
        var events: [GestureEvent] = []
        endLook(time: time, events: &events)
        settings = newSettings
        zone = IdleZone(settings: newSettings)
        recognizer = NodShakeRecognizer(settings: newSettings)
        sway = sway.map { RestingSway(settings: newSettings, calibrationSpread: $0.rms) }
        calibrator = Calibrator(samplesNeeded: newSettings.calibrationSamples, jump: newSettings.calibrationJump)
        return events
    }

    private mutating func measure(_ frame: FaceFrame) -> HeadPointer? {
        guard let face = frame.face else {
            counts.withoutFace += 1
            return nil
        }
        let o = frame.orientation, w = frame.width, h = frame.height
        let upright = FaceLandmarks(
            leftEye: o.upright(face.leftEye, width: w, height: h), rightEye: o.upright(face.rightEye, width: w, height: h),
            mouth: o.upright(face.mouth, width: w, height: h))
        switch HeadPointer.measure(upright) {
        case .success(let pointer): return pointer
        case .failure:
            counts.degenerate += 1
            return nil
        }
    }

    private mutating func calibrate(_ pointer: HeadPointer, time: Double, events: inout [GestureEvent]) {
        let restartsBefore = calibrator.restarts
        let result = calibrator.add(pointer, time: time)
        counts.calibrationRestarts += calibrator.restarts - restartsBefore
        guard let result else { return }
        calibration = result
        centre = result.centre
        scale = result.eyeDistance
        slowLogScale = log(scale)
        isTracking = true
        lastPointer = pointer.position
        zone = IdleZone(settings: settings)
        recognizer = NodShakeRecognizer(settings: settings)
        sway = RestingSway(settings: settings, calibrationSpread: result.spread)
        counts.calibrations += 1
        events.append(.startedTracking(centre: result.centre, eyeDistance: result.eyeDistance))
    }

    private mutating func track(_ pointer: HeadPointer, time: Double, since previous: Double?, events: inout [GestureEvent]) {
        guard let reference = calibration else { return }
        let dt = previous.map { time - $0 } ?? 0
        // Turning the head shortens the eye distance, nodding the eye–mouth distance; the
        // larger ratio is the face's true change of size, as when it comes closer.
        let ratio = max(pointer.eyeDistance / reference.eyeDistance, pointer.mouthDistance / reference.mouthDistance)
        scale += min(1, dt / Self.scaleSeconds) * (reference.eyeDistance * ratio - scale)
        slowLogScale += min(1, dt / Self.slowScaleSeconds) * (log(scale) - slowLogScale)
        let offset = (pointer.position - centre) / scale
        let change = zone.update(offset: offset, time: time, swingThresholds: smallSwings ? sway?.thresholds : nil)
        events.append(
            .moved(
                PointerMove(
                    from: lastPointer ?? pointer.position, to: pointer.position, centre: centre, offset: offset, scale: scale,
                    idleRadiusPixels: zone.radius * scale, isInIdleZone: zone.isInside)))
        if let ended = change.ended {
            if settings.mode == .continuous, !ended.isSmallSwing { events.append(.stoppedLooking(ended.direction)) }
            recognizer.lookEnded(ended, events: &events)
        }
        if let started = change.started, settings.mode == .continuous {
            events.append(.startedLooking(started.direction, distance: started.peak))
        }
        recognizer.tick(time: time, looking: zone.current != nil, events: &events)
        measureSway(dt: dt)
        followCentre(pointer.position, dt: dt)
        lastPointer = pointer.position
    }

    /// Feeds the sway meter with resting frames once `swayDelaySeconds` have shown that they
    /// did not lead into a swing: a nod's own way down must not raise its threshold. The
    /// frames of a small swing wait for its end: a slow one is sway and counts, a quick one
    /// opens a nod or shake and is dropped.
    private mutating func measureSway(dt: Double) {
        guard zone.current?.isSmallSwing ?? true, !recognizer.isOpen, zone.isInside, depthRate <= Self.depthRate else {
            pendingRest.removeAll(keepingCapacity: true)
            return
        }
        pendingRest.append((dt, zone.smoothedOffset))
        guard zone.current == nil else { return }
        var waiting = pendingRest.reduce(0) { $0 + $1.dt }
        while let first = pendingRest.first, waiting - first.dt >= Self.swayDelaySeconds {
            sway?.add(first.offset, dt: first.dt)
            waiting -= first.dt
            pendingRest.removeFirst()
        }
    }

    /// Seconds a resting frame waits before it counts toward the sway.
    static let swayDelaySeconds = 0.4

    /// Whether swings short of the movement threshold may make nods and shakes.
    private var smallSwings: Bool {
        settings.recognisesNodsAndShakes && settings.swingThreshold < settings.movementThreshold
    }

    /// How fast the face's size changes, per second: above `depthRate` it moves in depth.
    private var depthRate: Double { abs(log(scale) - slowLogScale) / (Self.slowScaleSeconds - Self.scaleSeconds) }

    /// Lets the centre follow a head that is not looking anywhere: slowly always (posture),
    /// and inside the idle zone quickly while the face changes size (leaning in or back,
    /// which off the camera's axis shifts the face in the picture). Turning or nodding leaves
    /// the size alone, and a head past the idle zone is never followed quickly, so looks and
    /// nods are not followed away. During a small swing only leaning is followed: following
    /// slowly would carry the centre along with a small nod and halve its second swing.
    private mutating func followCentre(_ position: SIMD2<Double>, dt: Double) {
        let quick = zone.isInside && depthRate > Self.depthRate
        guard zone.current.map({ $0.isSmallSwing && quick }) ?? true, settings.centreFollowSeconds > 0 else { return }
        centre += min(1, dt / (quick ? Self.depthFollowSeconds : settings.centreFollowSeconds)) * (position - centre)
    }

    private mutating func missingFace(at time: Double, events: inout [GestureEvent]) {
        if isTracking { recognizer.tick(time: time, looking: zone.current != nil, events: &events) }
        guard let seen = lastFaceTime, time - seen > settings.faceLossSeconds else { return }
        stopTracking(time: time, events: &events)
        calibrator.reset()
        lastFaceTime = nil
    }

    private mutating func stopTracking(time: Double, events: inout [GestureEvent]) {
        guard isTracking else { return }
        endLook(time: time, events: &events)
        events.append(.stoppedTracking)
        isTracking = false
        lastPointer = nil
    }

    /// Ends a look under way without it coming back, and what the recognizer holds.
    private mutating func endLook(time: Double, events: inout [GestureEvent]) {
        if let look = zone.reset(time: time), settings.mode == .continuous {
            events.append(.stoppedLooking(look.direction))
        }
        recognizer.flush(events: &events)
    }
}
