import Foundation
import Synchronization
import Testing

@testable import Recording

/// A clock that only moves when the replay sleeps, so pacing is checked without waiting.
final class ManualClock: Sendable {
    private let state = Mutex<(now: Duration, sleeps: [Duration])>((.zero, []))

    var sleeps: [Duration] { state.withLock { $0.sleeps } }

    func advance(by duration: Duration) { state.withLock { $0.now += duration } }

    var replayClock: ReplayClock {
        ReplayClock(
            elapsed: { self.state.withLock { $0.now } },
            sleep: { duration in
                self.state.withLock {
                    $0.now += duration; $0.sleeps.append(duration)
                }
            })
    }
}

struct ReplaySourceTests {
    @Test func recordedPaceWaitsForEachTimestamp() async throws {
        let fixture = try ScanFixture(width: 16, height: 12)
        defer { fixture.remove() }
        let reader = try ScanReader(url: try fixture.record("r.hscan", frames: 4))
        let clock = ManualClock()
        let source = ReplaySource(reader: reader, pacing: .recorded(speed: 1), clock: clock.replayClock)
        var stamps: [Double] = []
        while let frame = try await source.nextFrame() { stamps.append(frame.timestamp) }
        #expect(stamps.count == 4)
        #expect(clock.sleeps.count == 3)
        for sleep in clock.sleeps { #expect(abs(sleep.seconds - 1.0 / 30) < 1e-6) }
    }

    @Test func doubleSpeedHalvesTheWaitsAndSlowDecodingIsNotWaitedFor() async throws {
        let fixture = try ScanFixture(width: 16, height: 12)
        defer { fixture.remove() }
        let reader = try ScanReader(url: try fixture.record("r.hscan", frames: 3))
        let clock = ManualClock()
        let source = ReplaySource(reader: reader, pacing: .recorded(speed: 2), clock: clock.replayClock)
        _ = try await source.nextFrame()
        _ = try await source.nextFrame()
        #expect(abs((clock.sleeps.last ?? .zero).seconds - 1.0 / 60) < 1e-6)
        clock.advance(by: .seconds(1))  // decoding took longer than the gap: no sleep
        _ = try await source.nextFrame()
        #expect(clock.sleeps.count == 1)
    }

    @Test func fastReplayNeverSleepsAndSkipsDamagedFrames() async throws {
        let fixture = try ScanFixture(width: 16, height: 12)
        defer { fixture.remove() }
        let url = try fixture.record("r.hscan", frames: 3)
        var bytes = try Data(contentsOf: url)
        let reader0 = try ScanReader(url: url)
        let firstPayload = try reader0.payload(at: 1)
        let at = bytes.firstRange(of: Data(firstPayload.prefix(64)))!.lowerBound + 40
        bytes[at] ^= 1
        try bytes.write(to: url)
        let clock = ManualClock()
        let source = ReplaySource(reader: try ScanReader(url: url), pacing: .asFastAsPossible, clock: clock.replayClock)
        var count = 0
        while try await source.nextFrame() != nil { count += 1 }
        #expect(count == 2)
        #expect(await source.skipped == [.damagedFrame(index: 1, reason: "checksum mismatch")])
        #expect(clock.sleeps.isEmpty)
    }

    @Test func seekRestartsThePace() async throws {
        let fixture = try ScanFixture(width: 16, height: 12)
        defer { fixture.remove() }
        let reader = try ScanReader(url: try fixture.record("r.hscan", frames: 5))
        let clock = ManualClock()
        let source = ReplaySource(reader: reader, clock: clock.replayClock)
        _ = try await source.nextFrame()
        await source.seek(to: 4)
        let frame = try await source.nextFrame()
        #expect(frame?.timestamp == fixture.scene.timestamp(at: 4))
        #expect(clock.sleeps.isEmpty)
        #expect(try await source.nextFrame() == nil)
    }
}

extension Duration {
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}
