/// Plays a recording back as a `FrameSource`, at its recorded pace or as fast as possible.
///
/// Only the frame being handed out is in memory, so replays of any length stay small.
public actor ReplaySource: FrameSource {
    /// How fast frames come out.
    public enum Pacing: Sendable, Equatable {
        /// At the recorded timestamps, scaled by `speed` (2 = twice as fast).
        case recorded(speed: Double)
        /// Each frame as soon as it is decoded.
        case asFastAsPossible
    }

    /// The recording being played.
    public nonisolated let reader: ScanReader
    /// The pacing chosen at creation.
    public nonisolated let pacing: Pacing
    /// Frames that could not be read and were skipped, with the reason.
    public private(set) var skipped: [ScanFileError] = []
    /// Index of the next frame to hand out.
    public private(set) var position: Int

    private let clock: ReplayClock
    private var start: (elapsed: Duration, timestamp: Double)?

    /// A replay of `reader` from frame `startIndex`; a speed of 0 or less plays as fast as possible.
    public init(reader: ScanReader, pacing: Pacing = .recorded(speed: 1), startIndex: Int = 0, clock: ReplayClock = .continuous()) {
        self.reader = reader
        if case .recorded(let speed) = pacing, !(speed > 0) {
            self.pacing = .asFastAsPossible
        } else {
            self.pacing = pacing
        }
        self.clock = clock
        position = max(0, startIndex)
    }

    /// The next readable frame, after waiting until its moment; damaged frames are skipped.
    public func nextFrame() async throws -> RGBDFrame? {
        while position < reader.frameCount {
            let index = position
            position += 1
            do {
                let frame = try reader.frame(at: index)
                try await wait(for: frame.timestamp)
                return frame
            } catch let error as ScanFileError {
                skipped.append(error)
            }
        }
        return nil
    }

    /// Jumps to a frame; the pace restarts from there.
    public func seek(to index: Int) {
        position = min(max(0, index), reader.frameCount)
        start = nil
    }

    private func wait(for timestamp: Double) async throws {
        guard case .recorded(let speed) = pacing else { return }
        guard let start else {
            self.start = (clock.elapsed(), timestamp)
            return
        }
        let due = start.elapsed + .seconds((timestamp - start.timestamp) / speed)
        let early = due - clock.elapsed()
        if early > .zero { try await clock.sleep(early) }
    }
}
