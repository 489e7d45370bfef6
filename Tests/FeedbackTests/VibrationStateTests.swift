import Feedback
import Testing

struct VibrationStateTests {
    @Test func theVibrationComesBackAfterTheEngineStopsWhileWanted() {
        var state = VibrationState()
        #expect(state.start() == .play)
        #expect(state.didPlay() == .nothing)
        #expect(state.start() == .nothing)
        // An interruption stops the engine while the operator is still off position.
        #expect(state.engineStopped() == .play)
        // Restarting at once failed (the app was in the background)…
        state.playFailed()
        // …so the guide's next request plays again instead of being ignored.
        #expect(state.start() == .play)
        #expect(state.didPlay() == .nothing)
        #expect(state.playing && state.wanted)
    }

    @Test func anEngineStopWhileSilentPlaysNothingAndStopSilencesOnlyWhatPlays() {
        var state = VibrationState()
        #expect(state.engineStopped() == .nothing)
        #expect(state.stop() == .nothing)
        #expect(state.start() == .play)
        #expect(state.didPlay() == .nothing)
        #expect(state.stop() == .silence)
        #expect(!state.playing && !state.wanted)
        // A start that failed leaves nothing to silence, but is not wanted any more.
        #expect(state.start() == .play)
        state.playFailed()
        #expect(state.stop() == .nothing)
        #expect(state.engineStopped() == .nothing)
    }

    @Test func aPatternThatStartsAfterStopWasAskedDoesNotCountAsPlaying() {
        var state = VibrationState()
        #expect(state.start() == .play)
        _ = state.stop()
        #expect(state.didPlay() == .silence)
        #expect(!state.playing)
    }

    /// The alarm takes the motor from the "position" vibration and gives it back afterwards,
    /// so the operator feels the two apart and no wanted vibration is lost.
    @Test func theAlarmPausesThePositionVibrationAndItComesBackAfterwards() {
        var state = VibrationState()
        #expect(state.start() == .play)
        #expect(state.didPlay() == .nothing)
        #expect(state.alarmStarted() == .silence)
        #expect(!state.playing && state.alarming)
        // The guide asks again while the alarm plays: it waits.
        #expect(state.start() == .nothing)
        #expect(state.engineStopped() == .nothing)
        #expect(state.alarmEnded() == .play)
        #expect(state.didPlay() == .nothing && state.playing)
    }

    @Test func anAlarmWhileSilentLeavesSilenceAndAStopDuringTheAlarmIsKept() {
        var state = VibrationState()
        #expect(state.alarmStarted() == .nothing)
        #expect(state.alarmEnded() == .nothing)
        #expect(state.start() == .play)
        _ = state.didPlay()
        _ = state.alarmStarted()
        #expect(state.stop() == .nothing)
        #expect(state.alarmEnded() == .nothing)
        #expect(!state.playing && !state.wanted)
    }
}
