import Foundation
import HeadGestures
import Testing

@Suite("Swing threshold that follows the resting sway")
struct SwayTests {
    /// A quick swing to `distance` and back: `frames` frames out, `rest` frames at rest.
    func swing(_ driver: inout Driver, _ d: GestureDirection, _ distance: Double, frames: Int = 8, rest: Int = 6) -> [GestureEvent] {
        driver.hold(toward(d, distance), frames: frames) + driver.hold(SIMD2(0, 0), frames: rest)
    }

    /// `seconds` of a head swaying vertically by `amplitude` eye distances at `hertz`.
    func sway(_ driver: inout Driver, amplitude: Double, hertz: Double = 0.5, seconds: Double) -> [GestureEvent] {
        var events: [GestureEvent] = []
        for k in 0..<Int(seconds * 30) {
            events += driver.hold(SIMD2(0, amplitude * sin(2 * .pi * hertz * Double(k) / 30)))
        }
        return events
    }

    @Test func aCalmPersonsSmallNodCounts() throws {
        var driver = try Driver()
        driver.calibrate()
        let events = driver.hold(SIMD2(0, 0), frames: 30) + swing(&driver, .down, 0.2) + swing(&driver, .down, 0.2)
        #expect(events == [.nod])
        #expect(driver.engine.swingThresholds == SIMD2(0.14, 0.14))
    }

    @Test func aSmallShakeCountsAndItsSwingsAreNoLooks() throws {
        var driver = try Driver { $0.mode = .continuous }
        driver.calibrate()
        var events = driver.hold(SIMD2(0, 0), frames: 30)
        for d in [GestureDirection.left, .right, .left, .right] { events += driver.hold(toward(d, 0.2), frames: 7) }
        events += driver.hold(SIMD2(0, 0), frames: 30)
        #expect(events == [.shake])
    }

    @Test func aSingleSmallSwingIsNothing() throws {
        var driver = try Driver()
        driver.calibrate()
        let events = swing(&driver, .down, 0.2) + driver.hold(SIMD2(0, 0), frames: 40)
        #expect(events.isEmpty)
    }

    @Test func aFixedThresholdMissesTheSmallNodAsBefore() throws {
        var driver = try Driver { $0.swingThreshold = $0.movementThreshold }
        driver.calibrate()
        let events = driver.hold(SIMD2(0, 0), frames: 30) + swing(&driver, .down, 0.2) + swing(&driver, .down, 0.2)
        #expect(events.isEmpty)
    }

    @Test func aRestlessPersonsSwayRaisesTheThresholdAndMakesNoNod() throws {
        var driver = try Driver()
        driver.calibrate()
        // Sways up to 0.09 eye distances, root mean square 0.064: the threshold rises to 0.25.
        var events = sway(&driver, amplitude: 0.09, seconds: 6)
        let raised = driver.engine.swingThresholds?.y ?? 0
        #expect(raised > 0.22 && raised < 0.3)
        events += swing(&driver, .down, 0.2, rest: 3) + swing(&driver, .down, 0.2, rest: 3) + driver.hold(SIMD2(0, 0), frames: 30)
        #expect(events.isEmpty)
        // A deliberate nod still counts.
        #expect(swing(&driver, .down, 0.45) + swing(&driver, .down, 0.45) == [.nod])
    }

    @Test func theThresholdStopsAtTheMovementThreshold() throws {
        var driver = try Driver()
        driver.calibrate()
        // Slow enough that its swings past the floor are no nods: they count as sway.
        let events = sway(&driver, amplitude: 0.18, hertz: 0.2, seconds: 10)
        #expect(events.isEmpty)
        #expect(driver.engine.swingThresholds?.y == driver.engine.settings.movementThreshold)
    }

    @Test func theMeterRisesFasterThanItFalls() {
        var sway = RestingSway(settings: GestureSettings(), calibrationSpread: .zero)
        for _ in 0..<15 { sway.add(SIMD2(0, 0.05), dt: 1.0 / 30) }  // half a second
        let risen = sway.rms.y
        for _ in 0..<15 { sway.add(.zero, dt: 1.0 / 30) }
        let fallen = sway.rms.y
        #expect(risen > 0.028 && risen < 0.04)
        #expect(fallen > 0.85 * risen)
        #expect(sway.rms.x == 0)
    }

    @Test func settingsRefuseASwingThresholdAboveTheMovementThreshold() {
        var settings = GestureSettings()
        settings.swingThreshold = 0.35
        #expect(throws: GestureError.self) { try settings.validate() }
    }

    @Test func conversationalNodsAndShakesAreFoundInSimulatedSessions() throws {
        var total = EventScore()
        for seed in [21, 22, 23] as [UInt64] {
            let session = try SimulatedSession(scenario: .conversational, seconds: 30, seed: seed)
            for score in try GestureEvaluation.score(session, settings: GestureSettings()).values { total.add(score) }
        }
        let (recall, precision) = (total.recall, total.precision)
        #expect(total.truePositives >= 20)
        #expect(recall >= 0.95 && precision >= 0.98, "recall \(recall), precision \(precision)")
    }

    @Test func restlessRestGivesNoGesture() throws {
        for seed in [31, 32] as [UInt64] {
            let session = try SimulatedSession(scenario: .restless, seconds: 30, seed: seed)
            let events = try GestureEvaluation.falseGestures(in: session.stream.frames, settings: GestureSettings())
            #expect(events.isEmpty, "\(events.map(\.event.typeName))")
        }
    }
}
