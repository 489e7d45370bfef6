import Foundation
import HeadGestures
import Testing

struct NodShakeTests {
    /// A quick swing: `frames` frames out at 0.45, then back at rest for `rest` frames.
    func swing(_ driver: inout Driver, _ d: GestureDirection, frames: Int = 8, rest: Int = 6) -> [GestureEvent] {
        driver.hold(toward(d, 0.45), frames: frames) + driver.hold(SIMD2(0, 0), frames: rest)
    }

    @Test func twoQuickLooksDownAreANodNotTwoLooks() throws {
        var driver = try Driver()
        driver.calibrate()
        var events = swing(&driver, .down)
        #expect(events.isEmpty)  // could still become a nod: nothing yet
        events = swing(&driver, .down)
        #expect(events == [.nod])
        // The nod's further cycles belong to it; after the pause nothing else is reported.
        events = swing(&driver, .down) + driver.hold(SIMD2(0, 0), frames: 30)
        #expect(events.isEmpty)
    }

    @Test func aHeldLookDownIsALookNotANod() throws {
        var driver = try Driver()
        driver.calibrate()
        let events = swing(&driver, .down, frames: 30) + driver.hold(SIMD2(0, 0), frames: 30)
        #expect(same(events, [.looked(.down, distance: 0.45)]))
    }

    @Test func aSingleQuickLookDownIsReportedOnceNoSecondFollows() throws {
        var driver = try Driver()
        driver.calibrate()
        #expect(swing(&driver, .down, rest: 14).isEmpty)  // 0.47 s after: still waiting
        #expect(same(driver.hold(SIMD2(0, 0), frames: 2), [.looked(.down, distance: 0.45)]))
    }

    @Test func twoSlowLooksDownAreTwoLooks() throws {
        var driver = try Driver()
        driver.calibrate()
        let events = swing(&driver, .down, frames: 25) + swing(&driver, .down, frames: 25)
        #expect(events.map(\.typeName) == ["looked", "looked"])
    }

    @Test func quickLooksTooFarApartAreNoNod() throws {
        var driver = try Driver()
        driver.calibrate()
        let events = swing(&driver, .down, rest: 20) + swing(&driver, .down, rest: 20)
        #expect(events.map(\.typeName) == ["looked", "looked"])
    }

    @Test func leftRightLeftRightIsAShake() throws {
        var driver = try Driver { $0.mode = .continuous }
        driver.calibrate()
        var events: [GestureEvent] = []
        for d in [GestureDirection.left, .right, .left] {
            events += driver.hold(toward(d, 0.45), frames: 7)
        }
        #expect(!events.contains(.shake))
        events += driver.hold(toward(.right, 0.45), frames: 7) + driver.hold(SIMD2(0, 0), frames: 2)
        // Continuous mode reports every swing too, and the shake when its second cycle ends.
        #expect(events.filter { $0 == .shake }.count == 1)
        #expect(events.last == .shake)
        #expect(events.filter { if case .startedLooking = $0 { true } else { false } }.count == 4)
    }

    @Test func leftThenRightOnceIsTwoLooksNotAShake() throws {
        var driver = try Driver()
        driver.calibrate()
        let events = swing(&driver, .left, rest: 2) + swing(&driver, .right, rest: 30)
        #expect(events.map { "\($0.typeName) \($0.direction?.rawValue ?? "")" } == ["looked left", "looked right"])
    }

    @Test func aSlowLookEndsAnOpenSequenceAndBothAreReported() throws {
        var driver = try Driver()
        driver.calibrate()
        var events = swing(&driver, .up, rest: 3)
        events += swing(&driver, .left, frames: 30, rest: 3)
        #expect(events.map { "\($0.typeName) \($0.direction?.rawValue ?? "")" } == ["looked up", "looked left"])
    }

    @Test func withoutRecognitionEveryQuickLookIsReportedAtOnce() throws {
        var driver = try Driver { $0.recognisesNodsAndShakes = false }
        driver.calibrate()
        #expect(swing(&driver, .down).map(\.typeName) == ["looked"])
        #expect(swing(&driver, .down).map(\.typeName) == ["looked"])
    }

    /// One swing of a nod at `cycleFrames` frames a cycle: the reach rises and falls as
    /// (1 − cos)/2 to `peak`, with no hold.
    func smoothCycle(_ driver: inout Driver, _ d: GestureDirection, peak: Double, cycleFrames: Int) -> [GestureEvent] {
        var events: [GestureEvent] = []
        for k in 0..<cycleFrames {
            let phase = 2 * Double.pi * Double(k) / Double(cycleFrames)
            events += driver.hold(toward(d, peak * (1 - cos(phase)) / 2))
        }
        return events
    }

    @Test func aSlowNodWhoseSwingsLastLikeABriefLookIsANod() throws {
        // 1.2 s a cycle to 0.5 eye distances: each swing is past the threshold for about
        // 0.6 s and the head is back near rest for another 0.6 s between swings, longer than
        // the settings' gap; it never dwells at the bottom.
        var driver = try Driver()
        driver.calibrate()
        var events: [GestureEvent] = []
        for _ in 0..<3 { events += smoothCycle(&driver, .down, peak: 0.5, cycleFrames: 36) }
        events += driver.hold(SIMD2(0, 0), frames: 60)
        #expect(events == [.nod])
    }

    @Test func aSlowShakeIsAShake() throws {
        var driver = try Driver()
        driver.calibrate()
        var events: [GestureEvent] = []
        for _ in 0..<2 {
            events += smoothCycle(&driver, .left, peak: 0.5, cycleFrames: 18)
            events += smoothCycle(&driver, .right, peak: 0.5, cycleFrames: 18)
        }
        events += driver.hold(SIMD2(0, 0), frames: 60)
        #expect(events == [.shake])
    }

    @Test func aLookHeldBrieflyIsReportedAtOnceNotKeptForANod() throws {
        // 0.9 s past the threshold, shorter than a quick look may be, but held at its peak.
        var driver = try Driver()
        driver.calibrate()
        let events = driver.hold(toward(.down, 0.45), frames: 27) + driver.hold(SIMD2(0, 0), frames: 1)
        #expect(same(events, [.looked(.down, distance: 0.45)]))
    }

    @Test func oneNoisyFrameAtTheTopDoesNotMakeAHeldLookASwing() throws {
        var driver = try Driver()
        driver.calibrate()
        var events = driver.hold(toward(.down, 0.45), frames: 12)
        events += driver.hold(toward(.down, 0.9), frames: 1)
        events += driver.hold(toward(.down, 0.45), frames: 12) + driver.hold(SIMD2(0, 0), frames: 1)
        #expect(events.map(\.typeName) == ["looked"])
    }

    @Test func twoNodsApartByMoreThanTheirRhythmAreTwoNods() throws {
        var driver = try Driver()
        driver.calibrate()
        var events: [GestureEvent] = []
        for _ in 0..<2 {
            for _ in 0..<2 { events += smoothCycle(&driver, .down, peak: 0.5, cycleFrames: 15) }
            events += driver.hold(SIMD2(0, 0), frames: 30)
        }
        #expect(events == [.nod, .nod])
    }
}
