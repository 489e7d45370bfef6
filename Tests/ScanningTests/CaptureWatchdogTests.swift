import Scanning
import Testing

struct CaptureWatchdogTests {
    @Test func aStallIsWarnedOnceWithinASecondAndItsEndIsSaid() {
        var w = CaptureWatchdog()
        w.start(at: 0)
        var back: [Bool] = []
        for t in stride(from: 0.0, through: 2, by: 1.0 / 30) { back.append(w.frameArrived(at: t)) }
        #expect(!back.contains(true))
        // The last frame came at 2.0; the checks run every quarter of a second.
        let checks = [2.5, 2.7, 2.75, 3.0, 10].map { w.check(at: $0) }
        #expect(checks == [false, false, true, false, false])
        let returns = [10.1, 10.13].map { w.frameArrived(at: $0) }
        #expect(returns == [true, false])
        let later = [10.5, 10.9].map { w.check(at: $0) }
        #expect(later == [false, true])
    }

    @Test func aPausedRecordingIsNoStallAndACameraThatNeverStartsIs() {
        var w = CaptureWatchdog()
        let idle = w.check(at: 5)
        w.start(at: 0)
        w.stop()
        let paused = [w.check(at: 5), w.frameArrived(at: 5.1)]
        w.start(at: 6)
        let started = [w.check(at: 6.7), w.check(at: 6.75)]
        #expect(!idle && paused == [false, false] && started == [false, true])
    }
}
