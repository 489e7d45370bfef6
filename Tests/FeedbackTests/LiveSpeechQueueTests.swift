import Feedback
import Testing

struct LiveSpeechQueueTests {
    private func at(_ t: Double, _ event: FeedbackEvent) -> TimedFeedbackEvent { TimedFeedbackEvent(time: t, event: event) }

    /// However long the voice takes, the next phrase starts when it says it has finished, and
    /// milestones go before the waiting instruction.
    @Test func oneVoiceDrivenByItsOwnFinish() {
        var q = LiveSpeechQueue()
        #expect(q.handle(at(0, .speak(.tooClose, .instruction))) == .say(.tooClose, .instruction))
        #expect(q.handle(at(0.5, .speak(.percent(25), .milestone))) == nil)
        #expect(q.handle(at(0.6, .speak(.movePhone(.left), .instruction))) == nil)
        #expect(q.handle(at(0.7, .speak(.movePhone(.up), .instruction))) == nil)
        // A slow voice: "too close" took 3 s, longer than any estimate from its letters.
        #expect(q.finished(at: 3.0) == .say(.percent(25), .milestone))
        #expect(q.finished(at: 4.0) == .say(.movePhone(.up), .instruction))
        #expect(q.finished(at: 5.0) == nil)
        #expect(q.speaking == nil)
    }

    @Test func anIdealPositionOrCompletionWithdrawsTheWaitingInstruction() {
        var q = LiveSpeechQueue()
        _ = q.handle(at(0, .speak(.percent(50), .milestone)))
        _ = q.handle(at(0.1, .speak(.tooClose, .instruction)))
        _ = q.handle(at(0.2, .hapticStop))
        #expect(q.finished(at: 1) == nil)
        _ = q.handle(at(2, .speak(.done, .milestone)))
        _ = q.handle(at(2.1, .speak(.noHead, .instruction)))
        _ = q.handle(at(2.2, .completed(missing: [])))
        #expect(q.finished(at: 3) == nil)
    }

    @Test func theSameInstructionIsNotRepeatedTooSoon() {
        var q = LiveSpeechQueue(sameInstructionInterval: 2)
        #expect(q.handle(at(0, .speak(.tooClose, .instruction))) == .say(.tooClose, .instruction))
        _ = q.finished(at: 0.8)
        #expect(q.handle(at(1.0, .speak(.tooClose, .instruction))) == nil)
        #expect(q.handle(at(2.5, .speak(.tooClose, .instruction))) == .say(.tooClose, .instruction))
    }

    @Test func pauseKeepsMilestonesAndDropsInstructions() {
        var q = LiveSpeechQueue()
        _ = q.handle(at(0, .speak(.percent(25), .milestone)))
        _ = q.handle(at(0.1, .speak(.tooClose, .instruction)))
        q.pause()
        _ = q.handle(at(0.2, .speak(.percent(50), .milestone)))
        _ = q.handle(at(0.3, .speak(.noHead, .instruction)))
        #expect(q.finished(at: 1) == .say(.percent(50), .milestone))
        #expect(q.finished(at: 2) == nil)
        #expect(q.resume(at: 3) == nil)
        #expect(q.handle(at(3.1, .speak(.noHead, .instruction))) == .say(.noHead, .instruction))
    }

    @Test func stopCutsAStaleInstructionButStillSaysDone() {
        var q = LiveSpeechQueue()
        _ = q.handle(at(0, .speak(.movePhone(.left), .instruction)))
        _ = q.handle(at(0.1, .speak(.done, .milestone)))
        #expect(q.stop() == .silence)
        #expect(q.finished(at: 0.2) == .say(.done, .milestone))
        #expect(q.handle(at(0.3, .speak(.tooClose, .instruction))) == nil)
        // A milestone being said is never cut.
        #expect(q.stop() == nil)
        #expect(q.finished(at: 1) == nil)
    }
}
