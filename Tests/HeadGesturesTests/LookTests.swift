import HeadGestures
import Testing

struct LookTests {
    @Test(arguments: GestureDirection.allCases)
    func aLookStartsAtTheMovementThresholdNotBelow(direction: GestureDirection) throws {
        var driver = try Driver { $0.mode = .continuous }
        driver.calibrate()
        #expect(driver.hold(toward(direction, 0.299)).isEmpty)
        let events = driver.hold(toward(direction, 0.301))
        #expect(events.count == 1)
        guard case .startedLooking(let d, let distance) = events.first else {
            Issue.record("expected startedLooking, got \(events)")
            return
        }
        #expect(d == direction)
        #expect(abs(distance - 0.301) < 1e-9)
    }

    @Test(arguments: GestureDirection.allCases)
    func aLookStopsOnlyInsideTheReturnRadius(direction: GestureDirection) throws {
        // Idle radius 0.2, hysteresis 0.25: a look ends below 0.15.
        var driver = try Driver { $0.mode = .continuous }
        driver.calibrate()
        driver.hold(toward(direction, 0.4))
        #expect(driver.hold(toward(direction, 0.151)).isEmpty)
        #expect(driver.hold(toward(direction, 0.149)) == [.stoppedLooking(direction)])
    }

    @Test func personsLeftIsTheImagesRight() throws {
        var driver = try Driver { $0.mode = .continuous }
        driver.calibrate()
        // The face moves to the right of the unmirrored picture: the person turned left.
        let frame = driver.maker.frame(driver.index, pointer: SIMD2(320 + 30, 240))
        let events = driver.engine.process(frame).filter(\.isGesture)
        #expect(events.first?.direction == .left)
    }

    @Test(arguments: GestureDirection.allCases)
    func discreteLookIsReportedWhenTheHeadComesBack(direction: GestureDirection) throws {
        var driver = try Driver()
        driver.calibrate()
        #expect(driver.hold(toward(direction, 0.45), frames: 24).isEmpty)  // held 0.8 s: a slow look
        #expect(driver.hold(toward(direction, 0.151)).isEmpty)
        let events = driver.hold(toward(direction, 0.149))
        #expect(same(events, [.looked(direction, distance: 0.45)]))
    }

    @Test func noChatterWhenTheHeadRestsOnTheIdleZonesBorder() throws {
        var driver = try Driver { $0.mode = .continuous }
        driver.calibrate()
        var flips = 0
        var inside = true
        for k in 0..<60 {
            driver.hold(SIMD2(k % 2 == 0 ? 0.21 : 0.19, 0))
            let now = try #require(driver.lastMove).isInIdleZone
            if now != inside { flips += 1 }
            inside = now
        }
        // Out once at 0.21; 0.19 is not far enough in to count as back.
        #expect(flips == 1)
        #expect(!inside)
        driver.hold(SIMD2(0.14, 0))
        #expect(try #require(driver.lastMove).isInIdleZone)
    }

    @Test func noChatterAroundTheThresholdEvenWithoutAGap() throws {
        // Threshold equal to the idle radius: only the hysteresis keeps a look from chattering.
        var driver = try Driver {
            $0.mode = .continuous
            $0.movementThreshold = 0.2
        }
        driver.calibrate()
        var events: [GestureEvent] = []
        for k in 0..<60 { events += driver.hold(toward(.up, k % 2 == 0 ? 0.205 : 0.195)) }
        #expect(same(events, [.startedLooking(.up, distance: 0.205)]))
    }

    @Test func aDiagonalLookTakesTheLargerComponent() throws {
        var driver = try Driver { $0.mode = .continuous }
        driver.calibrate()
        #expect(same(driver.hold(SIMD2(-0.25, 0.35)), [.startedLooking(.down, distance: 0.35)]))
        // Still looking down while it stays down, however far aside.
        #expect(driver.hold(SIMD2(-0.34, 0.35)).isEmpty)
    }

    @Test func movedReportsThePointerEveryTrackedFrame() throws {
        var driver = try Driver()
        driver.calibrate()
        driver.hold(SIMD2(0.1, 0))
        driver.hold(SIMD2(0.1, 0.05))
        let move = try #require(driver.lastMove)
        #expect(abs(move.from.x - 326.4) < 1e-9 && abs(move.to.y - 243.2) < 1e-9)
        #expect(move.centre == SIMD2(320, 240))
        #expect(abs(move.offset.x - 0.1) < 1e-12 && abs(move.offset.y - 0.05) < 1e-12)
        #expect(abs(move.idleRadiusPixels - 12.8) < 1e-9)
        #expect(move.isInIdleZone)
    }

    @Test func settingsChangeWhileRunning() throws {
        var driver = try Driver { $0.mode = .continuous }
        driver.calibrate()
        driver.hold(toward(.right, 0.5))
        var settings = driver.engine.settings
        settings.mode = .discrete
        let events = try driver.engine.apply(settings, time: 1)
        #expect(events == [.stoppedLooking(.right)])
        #expect(driver.engine.state == .tracking)
        #expect(throws: GestureError.self) {
            var bad = settings
            bad.movementThreshold = 0.1
            _ = try driver.engine.apply(bad, time: 1)
        }
    }

    @Test func degenerateFramesAreSkippedAndCounted() throws {
        var driver = try Driver()
        driver.calibrate()
        let flat = FaceLandmarks(leftEye: SIMD2(352, 200), rightEye: SIMD2(288, 200), mouth: SIMD2(320, 200.5))
        let events = driver.engine.process(FaceFrame(time: Double(driver.index) / 30, width: 640, height: 480, face: flat))
        #expect(events.isEmpty)
        #expect(driver.engine.counts.degenerate == 1)
        #expect(driver.engine.state == .tracking)
    }

    @Test func framesAreSkippedToKeepToTheDetectionRate() throws {
        var driver = try Driver { $0.detectionRate = 10 }
        driver.hold(SIMD2(0, 0), frames: 90)
        #expect(driver.engine.counts.analysed == 30)
        #expect(driver.engine.counts.skippedByRate == 60)
        // Ten analysed frames calibrate, one second at 10 per second.
        #expect(driver.engine.counts.calibrations == 1)
    }

    @Test func framesOutOfOrderAreIgnored() throws {
        var engine = try GestureEngine()
        let maker = FaceMaker()
        _ = engine.process(maker.frame(5, pointer: SIMD2(320, 240)))
        _ = engine.process(maker.frame(4, pointer: SIMD2(320, 240)))
        _ = engine.process(FaceFrame(time: .nan, width: 640, height: 480, face: nil))
        #expect(engine.counts.badTime == 2 && engine.counts.analysed == 1)
    }
}
