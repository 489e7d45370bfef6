import HeadGestures
import Testing

struct CalibrationTests {
    @Test func startsTrackingAfterTheSamplesWithTheMeanOfTheLastFive() throws {
        var driver = try Driver()
        // Ten samples drifting 1 px per frame: steady enough, and the mean of the last five
        // is the seventh-to-ninth-sample's middle, x + 7.
        var events: [GestureEvent] = []
        for k in 0..<10 { events += driver.hold(SIMD2(Double(k) / 64, 0)) }
        guard case .startedTracking(let centre, let eyes) = events.last else {
            Issue.record("expected startedTracking, got \(events)")
            return
        }
        #expect(events.count == 1)
        #expect(abs(centre.x - 327) < 1e-9 && abs(centre.y - 240) < 1e-9)
        #expect(abs(eyes - 64) < 1e-9)
        #expect(driver.engine.state == .tracking)
        #expect(driver.engine.counts.calibrationRestarts == 0)
    }

    @Test func aJumpRestartsCalibration() throws {
        var driver = try Driver()
        driver.hold(SIMD2(0, 0), frames: 6)
        #expect(driver.engine.state == .calibrating(progress: 0.6))
        // 0.3 eye distances in one frame is more than the 0.2 a steady head moves.
        var events = driver.hold(SIMD2(0.3, 0), frames: 9)
        #expect(events.isEmpty)
        #expect(driver.engine.counts.calibrationRestarts == 1)
        events = driver.hold(SIMD2(0.3, 0))
        guard case .startedTracking(let centre, _) = events.first else {
            Issue.record("expected startedTracking after ten samples since the jump, got \(events)")
            return
        }
        #expect(abs(centre.x - (320 + 0.3 * 64)) < 1e-9)
    }

    @Test func aJumpJustBelowTheLimitDoesNotRestart() throws {
        var driver = try Driver()
        driver.hold(SIMD2(0, 0), frames: 5)
        driver.hold(SIMD2(0.199, 0), frames: 4)
        #expect(driver.engine.counts.calibrationRestarts == 0)
        #expect(driver.hold(SIMD2(0.199, 0)).first.map { if case .startedTracking = $0 { true } else { false } } == true)
    }

    @Test func calibratorAveragesOnlyTheLastFive() {
        var calibrator = Calibrator(samplesNeeded: 7, jump: 0.2)
        var result: Calibration?
        for k in 0..<7 {
            result = calibrator.add(HeadPointer(position: SIMD2(Double(k), 0), eyeDistance: 60 + Double(k), mouthDistance: 70), time: Double(k))
        }
        #expect(result?.centre == SIMD2(4, 0))
        #expect(result?.eyeDistance == 64)
        #expect(result?.time == 6)
    }

    @Test func recalibratesWhenTheFaceIsLostAndFoundAgain() throws {
        var driver = try Driver { $0.mode = .continuous }
        driver.calibrate()
        #expect(same(driver.hold(toward(.left, 0.5)), [.startedLooking(.left, distance: 0.5)]))
        // Less than 0.5 s is bridged: nothing ends, nothing restarts.
        #expect(driver.noFace(frames: 14).isEmpty)
        #expect(driver.engine.state == .tracking)
        // Longer than 0.5 s: the look under way ends, then tracking.
        let lost = driver.noFace(frames: 17)
        #expect(lost == [.stoppedLooking(.left), .stoppedTracking])
        #expect(driver.engine.state == .searching)
        // The person comes back elsewhere: a fresh calibration there, no look.
        driver.centre = SIMD2(400, 260)
        let back = driver.hold(SIMD2(0, 0), frames: 10)
        guard case .startedTracking(let centre, _) = back.last else {
            Issue.record("expected a new calibration, got \(back)")
            return
        }
        #expect(back.count == 1)
        #expect(abs(centre.x - 400) < 1e-9 && abs(centre.y - 260) < 1e-9)
        #expect(driver.engine.counts.calibrations == 2)
    }

    @Test func aShortGapDuringCalibrationKeepsTheSamples() throws {
        var driver = try Driver()
        driver.hold(SIMD2(0, 0), frames: 5)
        driver.noFace(frames: 3)
        #expect(driver.engine.state == .calibrating(progress: 0.5))
        driver.noFace(frames: 20)
        #expect(driver.engine.state == .searching)
    }
}
