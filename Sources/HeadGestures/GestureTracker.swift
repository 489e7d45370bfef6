/// Receives head gestures, one method per event as in the seed's delegate; every method has an
/// empty default, so a delegate implements only what it uses.
public protocol GestureDelegate: AnyObject {
    /// Calibration finished; gestures are recognised from now on.
    func gestureTracker(_ tracker: GestureTracker, didStartTrackingWith calibration: Calibration)
    /// The face was lost; calibration restarts when it returns.
    func gestureTrackerDidStopTracking(_ tracker: GestureTracker)
    /// Continuous mode: the head went past the movement threshold.
    func gestureTracker(_ tracker: GestureTracker, didStartLooking direction: GestureDirection, distance: Double)
    /// Continuous mode: the head came back.
    func gestureTracker(_ tracker: GestureTracker, didStopLooking direction: GestureDirection)
    /// Discrete mode: the head looked and came back.
    func gestureTracker(_ tracker: GestureTracker, didLook direction: GestureDirection, distance: Double)
    /// A nod.
    func gestureTrackerDidNod(_ tracker: GestureTracker)
    /// A shake.
    func gestureTrackerDidShake(_ tracker: GestureTracker)
    /// Every tracked frame.
    func gestureTracker(_ tracker: GestureTracker, didMove move: PointerMove)
}

extension GestureDelegate {
    public func gestureTracker(_ tracker: GestureTracker, didStartTrackingWith calibration: Calibration) {}
    public func gestureTrackerDidStopTracking(_ tracker: GestureTracker) {}
    public func gestureTracker(_ tracker: GestureTracker, didStartLooking direction: GestureDirection, distance: Double) {}
    public func gestureTracker(_ tracker: GestureTracker, didStopLooking direction: GestureDirection) {}
    public func gestureTracker(_ tracker: GestureTracker, didLook direction: GestureDirection, distance: Double) {}
    public func gestureTrackerDidNod(_ tracker: GestureTracker) {}
    public func gestureTrackerDidShake(_ tracker: GestureTracker) {}
    public func gestureTracker(_ tracker: GestureTracker, didMove move: PointerMove) {}
}

/// The engine with its outlets: events go to the delegate, synchronously and in order, and to
/// `events`, an `AsyncStream` any task may read.
///
/// A tracker belongs to the one place that feeds it frames (an actor, a capture queue's
/// owner, the main actor); create one per camera session, there are no shared instances.
public final class GestureTracker {
    /// The engine; read its state and counts here.
    public private(set) var engine: GestureEngine
    /// Receives every event; held weakly, as delegates are.
    public weak var delegate: (any GestureDelegate)?
    /// Every event with its frame time, until `finish()`; keeps the newest ones when the
    /// reader falls behind.
    public let events: AsyncStream<TimedGestureEvent>

    private let continuation: AsyncStream<TimedGestureEvent>.Continuation
    private var buffer: [GestureEvent] = []

    /// A tracker with `settings`; the stream keeps at most `streamBuffer` unread events.
    public init(settings: GestureSettings = GestureSettings(), streamBuffer: Int = 1024) throws(GestureError) {
        engine = try GestureEngine(settings: settings)
        (events, continuation) = AsyncStream.makeStream(of: TimedGestureEvent.self, bufferingPolicy: .bufferingNewest(streamBuffer))
        buffer.reserveCapacity(8)
    }

    deinit { continuation.finish() }

    /// Processes one frame and delivers its events; returns them too.
    @discardableResult
    public func process(_ frame: FaceFrame) -> [TimedGestureEvent] {
        buffer.removeAll(keepingCapacity: true)
        engine.process(frame, into: &buffer)
        return deliver(buffer, time: frame.time)
    }

    /// Starts calibration again.
    @discardableResult
    public func recalibrate(time: Double) -> [TimedGestureEvent] {
        deliver(engine.recalibrate(time: time), time: time)
    }

    /// Changes the settings while running.
    @discardableResult
    public func apply(_ settings: GestureSettings, time: Double) throws(GestureError) -> [TimedGestureEvent] {
        deliver(try engine.apply(settings, time: time), time: time)
    }

    /// Ends the event stream; later events still reach the delegate.
    public func finish() { continuation.finish() }

    private func deliver(_ events: [GestureEvent], time: Double) -> [TimedGestureEvent] {
        var timed: [TimedGestureEvent] = []
        timed.reserveCapacity(events.count)
        for event in events {
            let item = TimedGestureEvent(time: time, event: event)
            timed.append(item)
            continuation.yield(item)
            tellDelegate(event)
        }
        return timed
    }

    private func tellDelegate(_ event: GestureEvent) {
        guard let delegate else { return }
        switch event {
        case .startedTracking:
            if let calibration = engine.calibration { delegate.gestureTracker(self, didStartTrackingWith: calibration) }
        case .stoppedTracking: delegate.gestureTrackerDidStopTracking(self)
        case .startedLooking(let d, let distance): delegate.gestureTracker(self, didStartLooking: d, distance: distance)
        case .stoppedLooking(let d): delegate.gestureTracker(self, didStopLooking: d)
        case .looked(let d, let distance): delegate.gestureTracker(self, didLook: d, distance: distance)
        case .nod: delegate.gestureTrackerDidNod(self)
        case .shake: delegate.gestureTrackerDidShake(self)
        case .moved(let move): delegate.gestureTracker(self, didMove: move)
        }
    }
}
