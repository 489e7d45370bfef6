import HeadGestures
import Testing

struct NormalisationTests {
    @Test(arguments: [40.0, 64.0, 150.0])
    func thresholdsHoldAtAnyFaceSize(eyeDistance: Double) throws {
        var driver = try Driver { $0.mode = .continuous }
        driver.maker.eyeDistance = eyeDistance
        driver.calibrate()
        #expect(driver.hold(toward(.left, 0.29)).isEmpty)
        #expect(driver.hold(toward(.left, 0.31)).map(\.typeName) == ["startedLooking"])
    }

    @Test func turningTheHeadDoesNotShrinkTheScale() throws {
        // A turned head shows its eyes closer together; the eye–mouth distance keeps the scale.
        var engine = try GestureEngine()
        let maker = FaceMaker()
        for k in 0..<10 { _ = engine.process(maker.frame(k, pointer: SIMD2(320, 240))) }
        var face = maker.landmarks(pointer: SIMD2(340, 240))
        face.leftEye.x -= 3
        face.rightEye.x += 3
        var move: PointerMove?
        for k in 10..<20 {
            for case .moved(let m) in engine.process(FaceFrame(time: Double(k) / 30, width: 640, height: 480, face: face)) { move = m }
        }
        #expect(abs(try #require(move).scale - 64) < 0.5)
    }

    @Test func comingCloserOffTheAxisIsNoGesture() throws {
        // The face sits 35 px right of and below the image centre (an eye distance away) and comes
        // closer along the camera's axis, growing from 50 to 100 px between the eyes in three
        // seconds: the pointer drifts outward by half an eye distance, past the threshold.
        var settings = GestureSettings()
        settings.mode = .continuous  // a look would show at once, without waiting for its end
        var engine = try GestureEngine(settings: settings)
        let axis = SIMD2(319.5, 239.5), start = SIMD2(354.5, 274.5)
        var events: [GestureEvent] = []
        var finalOffset = SIMD2<Double>(.nan, .nan)
        for k in 0..<150 {
            let grow = k < 30 ? 1 : min(2, 1 + Double(k - 30) / 90)
            let maker = FaceMaker(eyeDistance: 50 * grow)
            let frame = maker.frame(k, pointer: axis + (start - axis) * grow)
            for e in engine.process(frame) {
                if case .moved(let m) = e { finalOffset = m.offset } else { events.append(e) }
            }
        }
        #expect(events.map(\.typeName) == ["startedTracking"])
        #expect((finalOffset * finalOffset).sum().squareRoot() < 0.1)
    }

    @Test func withoutFollowingTheSameApproachWouldLook() throws {
        // The control for the test above: with the centre fixed, the drift is a look.
        var settings = GestureSettings()
        settings.centreFollowSeconds = 0
        settings.mode = .continuous
        var engine = try GestureEngine(settings: settings)
        let axis = SIMD2(319.5, 239.5), start = SIMD2(354.5, 274.5)
        var gestures = 0
        for k in 0..<150 {
            let grow = k < 30 ? 1 : min(2, 1 + Double(k - 30) / 90)
            let frame = FaceMaker(eyeDistance: 50 * grow).frame(k, pointer: axis + (start - axis) * grow)
            gestures += engine.process(frame).filter(\.isGesture).count
        }
        #expect(gestures > 0)
    }

    @Test func aSlowLookIsNotFollowedAway() throws {
        // Turning left over 1.5 s: the size stays, so the centre follows only slowly and the
        // look still happens.
        var driver = try Driver { $0.centreFollowSeconds = 2 }
        driver.calibrate()
        var events: [GestureEvent] = []
        for k in 0..<45 { events += driver.hold(toward(.left, 0.5 * Double(k) / 45)) }
        // Held only briefly, it could still be the first swing of a slow shake: it is reported
        // once no second swing has followed.
        events += driver.hold(toward(.left, 0.5), frames: 10) + driver.hold(SIMD2(0, 0), frames: 60)
        #expect(events.map(\.typeName) == ["looked"])
    }
}
