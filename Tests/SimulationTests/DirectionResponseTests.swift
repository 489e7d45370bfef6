import Testing

@testable import Simulation

/// The operator answers a direction in strokes with pauses, after a reaction time.
struct DirectionResponseTests {
    private let dt = 1 / Simulator.frameRate

    /// Per frame whether the phone moves, while `instruction(frame)` is in force.
    private func moving(frames: Int, instruction: (Int) -> (x: Double, y: Double)?) -> [Bool] {
        var response = DirectionResponse()
        return (0..<frames).map { response.step(instruction: instruction($0), dt: dt) != nil }
    }

    /// Frame counts of the runs of equal values, e.g. [F, F, T] → [2, 1].
    private func runs(_ values: [Bool]) -> [Int] {
        values.reduce(into: [(Bool, Int)]()) { r, v in
            if r.last?.0 == v { r[r.count - 1].1 += 1 } else { r.append((v, 1)) }
        }.map(\.1)
    }

    private func frames(_ seconds: Double) -> Int { Int((seconds * Simulator.frameRate).rounded()) }

    @Test func movesInStrokesWithPausesAfterAReactionTime() {
        let pattern = runs(moving(frames: 60) { _ in (1, 0) })
        // still (reaction), stroke, hold, stroke, hold, …
        #expect(abs(pattern[0] - frames(DirectionResponse.reactionTime)) <= 1, "\(pattern)")
        for (k, length) in pattern.dropFirst().dropLast().enumerated() {
            let expected = k % 2 == 0 ? DirectionResponse.strokeDuration : DirectionResponse.holdDuration
            #expect(abs(length - frames(expected)) <= 1, "\(pattern)")
        }
    }

    @Test func strokesGoTheAnnouncedWay() {
        var response = DirectionResponse()
        var moves: [(x: Double, y: Double)] = []
        for _ in 0..<30 {
            if let m = response.step(instruction: (-1, 1), dt: dt) { moves.append(m) }
        }
        #expect(!moves.isEmpty && moves.allSatisfy { $0.x == -1 && $0.y == 1 })
    }

    @Test func anInstructionGoneBeforeTheReactionCausesNoMove() {
        let short = frames(DirectionResponse.reactionTime) / 2
        #expect(!moving(frames: 60) { $0 < short ? (1, 0) : nil }.contains(true))
    }

    /// A stroke once begun is carried through; after it the phone stays put once the
    /// vibration has stopped.
    @Test func aStrokeInFlightEndsAndNoOtherFollows() {
        let start = frames(DirectionResponse.reactionTime) + 2
        let moves = moving(frames: 90) { $0 < start ? (0, -1) : nil }
        #expect(runs(moves).count == 3, "still, one stroke, still: \(runs(moves))")
        #expect(abs(moves.filter { $0 }.count - frames(DirectionResponse.strokeDuration)) <= 1)
    }
}
