import HeadGestures
import Testing

/// Records what a delegate is told.
final class RecordingDelegate: GestureDelegate {
    var calls: [String] = []

    func gestureTracker(_ tracker: GestureTracker, didStartTrackingWith calibration: Calibration) { calls.append("startedTracking") }
    func gestureTracker(_ tracker: GestureTracker, didStartLooking direction: GestureDirection, distance: Double) {
        calls.append("startedLooking \(direction.rawValue)")
    }
    func gestureTracker(_ tracker: GestureTracker, didStopLooking direction: GestureDirection) {
        calls.append("stoppedLooking \(direction.rawValue)")
    }
    func gestureTrackerDidStopTracking(_ tracker: GestureTracker) { calls.append("stoppedTracking") }
}

struct TrackerTests {
    func frames() -> [FaceFrame] {
        let maker = FaceMaker()
        var frames = (0..<10).map { maker.frame($0, pointer: SIMD2(320, 240)) }
        frames += (10..<20).map { maker.frame($0, pointer: SIMD2(320 - 30, 240)) }  // looks right
        frames += (20..<25).map { maker.frame($0, pointer: SIMD2(320, 240)) }
        frames += (25..<45).map { maker.empty($0) }
        return frames
    }

    @Test func eventsReachTheStreamInOrder() async throws {
        var settings = GestureSettings()
        settings.mode = .continuous
        let tracker = try GestureTracker(settings: settings)
        var returned: [TimedGestureEvent] = []
        for frame in frames() { returned += tracker.process(frame) }
        tracker.finish()
        var streamed: [TimedGestureEvent] = []
        for await event in tracker.events { streamed.append(event) }
        #expect(streamed == returned)
        let gestures = streamed.filter { if case .moved = $0.event { false } else { true } }.map(\.event.typeName)
        #expect(gestures == ["startedTracking", "startedLooking", "stoppedLooking", "stoppedTracking"])
        #expect(streamed.filter { if case .moved = $0.event { true } else { false } }.count == 15)
    }

    @Test func theStreamCanBeReadWhileFramesArrive() async throws {
        let tracker = try GestureTracker()
        let stream = tracker.events
        let reader = Task {
            var names: [String] = []
            for await event in stream where event.event.isGesture || event.event.typeName == "startedTracking" {
                names.append(event.event.typeName)
            }
            return names
        }
        for frame in frames() { tracker.process(frame) }
        tracker.finish()
        #expect(await reader.value == ["startedTracking", "looked"])
    }

    @Test func theDelegateHearsEachEventByItsMethod() throws {
        var settings = GestureSettings()
        settings.mode = .continuous
        let tracker = try GestureTracker(settings: settings)
        let delegate = RecordingDelegate()
        tracker.delegate = delegate
        for frame in frames() { tracker.process(frame) }
        #expect(delegate.calls == ["startedTracking", "startedLooking right", "stoppedLooking right", "stoppedTracking"])
    }

    @Test func twoTrackersAreIndependent() throws {
        let a = try GestureTracker(), b = try GestureTracker()
        for frame in frames().prefix(10) { a.process(frame) }
        #expect(a.engine.state == .tracking)
        #expect(b.engine.state == .searching)
    }
}
