import HeadGestures
import Testing

struct SimulatorTests {
    @Test func theSameSeedGivesTheSameStream() throws {
        let a = try SimulatedSession(scenario: .mixed, seconds: 20, seed: 7)
        let b = try SimulatedSession(scenario: .mixed, seconds: 20, seed: 7)
        let c = try SimulatedSession(scenario: .mixed, seconds: 20, seed: 8)
        #expect(a.stream.frames == b.stream.frames && a.truth == b.truth)
        #expect(a.stream.frames != c.stream.frames)
    }

    @Test func turningToOnesLeftMovesTheFaceRightInThePicture() throws {
        let face = SimulatedFace(), camera = SimulatedFace.camera
        let rest = try #require(face.landmarks(HeadPose(pivot: SIMD3(0, 0, 0.45)), camera: camera))
        let left = try #require(face.landmarks(HeadPose(yaw: 0.3, pivot: SIMD3(0, 0, 0.45)), camera: camera))
        let down = try #require(face.landmarks(HeadPose(pitch: 0.3, pivot: SIMD3(0, 0, 0.45)), camera: camera))
        #expect(left.mouth.x > rest.mouth.x + 20)
        #expect(down.mouth.y > rest.mouth.y + 10)
        // The person's left eye is on the picture's right.
        #expect(rest.leftEye.x > rest.rightEye.x)
    }

    @Test func noiseHasTheRequestedSpread() {
        var simulator = HeadMotionSimulator()
        simulator.dropoutRate = 0
        let script = HeadMotionScript(motions: [.rest(seconds: 20)], start: SIMD3(0, 0, 0.45))
        let noisy = simulator.run(script, face: SimulatedFace(), seed: 3)
        simulator.noisePixels = 0
        let clean = simulator.run(script, face: SimulatedFace(), seed: 3)
        var sum = 0.0
        for (n, c) in zip(noisy.frames, clean.frames) { sum += ((n.face!.mouth - c.face!.mouth) * (n.face!.mouth - c.face!.mouth)).sum() }
        let sigma = (sum / Double(2 * noisy.frames.count)).squareRoot()
        #expect(abs(sigma - 2) < 0.15)
    }

    @Test func dropoutsAndLossesHideTheFace() throws {
        var simulator = HeadMotionSimulator()
        simulator.dropoutRate = 0.1
        let script = HeadMotionScript(
            motions: [.rest(seconds: 10), .faceLost(seconds: 1, shift: SIMD2(0.02, 0)), .rest(seconds: 2)], start: SIMD3(0, 0, 0.45))
        let stream = simulator.run(script, face: SimulatedFace(), seed: 4)
        let missing = stream.frames.prefix(300).filter { $0.face == nil }.count
        #expect(missing > 15 && missing < 45)
        #expect(stream.frames[300..<330].allSatisfy { $0.face == nil })
    }

    @Test func theTruthHoldsEveryScriptedGestureInOrder() throws {
        let script = HeadMotionScript(
            motions: [
                .rest(seconds: 2), .look(.up, degrees: 28, rampSeconds: 0.3, holdSeconds: 1), .rest(seconds: 1.5),
                .nod(degrees: 24, cycles: 3, cycleSeconds: 0.5), .rest(seconds: 1.5),
                .shake(degrees: 25, cycles: 2, cycleSeconds: 0.6, firstSide: .right), .rest(seconds: 1.5),
                .approach(toDistance: 0.32, seconds: 2), .rest(seconds: 1),
            ],
            start: SIMD3(0.02, 0, 0.5))
        let stream = HeadMotionSimulator().run(script, face: SimulatedFace(), seed: 9)
        let truth = try GestureTruth.events(of: stream, settings: GestureSettings())
        #expect(truth.map(\.type) == ["looked", "nod", "shake"])
        #expect(truth[0].direction == .up)
        // The look ends as its ramp back passes the return radius, within the ramp.
        #expect(truth[0].t > 3.3 && truth[0].t < 3.6)
        var continuous = GestureSettings()
        continuous.mode = .continuous
        let started = try GestureTruth.events(of: stream, settings: continuous).filter { $0.type == "startedLooking" }
        #expect(started.map(\.direction) == [.up, .down, .down, .down, .right, .left, .right, .left])
    }

    @Test func aGestureTooSmallForTheThresholdIsRejected() {
        let script = HeadMotionScript(
            motions: [.rest(seconds: 2), .look(.left, degrees: 5, rampSeconds: 0.3, holdSeconds: 1), .rest(seconds: 1)],
            start: SIMD3(0, 0, 0.45))
        let stream = HeadMotionSimulator().run(script, face: SimulatedFace(), seed: 1)
        #expect(throws: GestureError.self) { try GestureTruth.events(of: stream, settings: GestureSettings()) }
    }

    @Test func theEngineFindsEveryGestureOfAMixedSession() throws {
        // A regression guard on one seeded session; the benchmark measures many.
        let session = try SimulatedSession(scenario: .mixed, seconds: 40, seed: 11)
        let scores = try GestureEvaluation.score(session, settings: GestureSettings())
        let total = scores.values.reduce(into: EventScore()) { $0.add($1) }
        #expect(total.truePositives == session.truth.count)
        #expect(total.falsePositives == 0)
        #expect(total.maxFrameError <= 3)
        #expect(Set(session.truth.map(\.type)) == ["looked", "nod", "shake"])
    }

    @Test func restingAndLeaningInGiveNoGesture() throws {
        for scenario in [GestureScenario.rest, .approach] {
            let session = try SimulatedSession(scenario: scenario, seconds: 30, seed: 2)
            #expect(session.truth.isEmpty)
            #expect(try GestureEvaluation.falseGestures(in: session.stream.frames, settings: GestureSettings()).isEmpty)
        }
    }

    @Test func scoringCountsMatchesMissesAndExtras() {
        let truth = [TruthEvent(t: 1, frame: 30, type: "nod"), TruthEvent(t: 3, frame: 90, type: "nod")]
        let detected = [
            TimedGestureEvent(time: 1.1, event: .nod), TimedGestureEvent(time: 5, event: .nod),
            TimedGestureEvent(time: 2, event: .looked(.left, distance: 0.4)),
        ]
        let scores = EventScoring.score(detected: detected, truth: truth, fps: 30)
        #expect(scores["nod"]?.truePositives == 1 && scores["nod"]?.falseNegatives == 1 && scores["nod"]?.falsePositives == 1)
        #expect(scores["nod"]?.frameErrors == [3])
        #expect(scores["looked left"]?.precision == 0)
    }
}
