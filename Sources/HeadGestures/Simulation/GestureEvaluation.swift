/// Runs the engine over simulated sessions and scores it against their truth.
public enum GestureEvaluation {
    /// Every event the engine produces for `frames` (gestures and tracking; not the per-frame moves).
    public static func events(of frames: [FaceFrame], settings: GestureSettings) throws(GestureError) -> [TimedGestureEvent] {
        var engine = try GestureEngine(settings: settings)
        var result: [TimedGestureEvent] = []
        var buffer: [GestureEvent] = []
        buffer.reserveCapacity(8)
        for frame in frames {
            buffer.removeAll(keepingCapacity: true)
            engine.process(frame, into: &buffer)
            for event in buffer {
                if case .moved = event { continue }
                result.append(TimedGestureEvent(time: frame.time, event: event))
            }
        }
        return result
    }

    /// Scores per event kind for one session.
    public static func score(_ session: SimulatedSession, settings: GestureSettings) throws(GestureError) -> [String: EventScore] {
        let detected = try events(of: session.stream.frames, settings: settings)
        return EventScoring.score(detected: detected, truth: session.truth, fps: session.stream.fps)
    }

    /// Gesture events in `frames` (a stream in which nothing should happen).
    public static func falseGestures(in frames: [FaceFrame], settings: GestureSettings) throws(GestureError) -> [TimedGestureEvent] {
        try events(of: frames, settings: settings).filter(\.event.isGesture)
    }
}
