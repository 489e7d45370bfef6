import Geometry
import Markers
import Testing

@testable import Simulation

/// Each scenario does what its name promises, checked on poses alone (no rendering).
struct ScenarioTests {
    private func run(_ scenario: Scenario, seconds: Double = 30) throws -> [FrameTruth] {
        let sim = try simulator(scenario, seed: 2, seconds: seconds)
        var frames: [FrameTruth] = []
        while let truth = sim.advance() { frames.append(truth) }
        return frames
    }

    private func distance(_ t: FrameTruth) -> Double { length(matrix(t.meshFromCamera).translation) }

    @Test func idealStaysAtScanningDistanceAndGoesAllAround() throws {
        let frames = try run(.ideal)
        #expect(frames.allSatisfy { (0.25...0.5).contains(distance($0)) })
        let behind = frames.filter { matrix($0.meshFromCamera).translation.y < -0.15 }
        let above = frames.filter { matrix($0.meshFromCamera).translation.z > 0.3 }
        #expect(!behind.isEmpty && !above.isEmpty)
        #expect(Set(frames.flatMap { $0.markers.map(\.id) }).count == 57)
    }

    @Test func tooCloseComesInsideTheSensorsMinimumRange() throws {
        let frames = try run(.tooClose)
        let close = frames.filter { distance($0) < 0.2 }.count
        #expect(close > 30 && close < frames.count / 2)
    }

    /// Whether all visible marker corners lie on one side of the picture's middle band (5 %).
    private func offCentre(_ t: FrameTruth) -> Bool {
        let xs = t.markers.flatMap { $0.corners.map { $0[0] } }, ys = t.markers.flatMap { $0.corners.map { $0[1] } }
        guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max() else { return true }
        return maxX < 160 - 8 || minX > 160 + 8 || maxY < 120 - 6 || minY > 120 + 6
    }

    @Test func offCenterPutsTheHeadToOneSideOfThePicture() throws {
        let ideal = try run(.ideal).filter(offCentre).count, off = try run(.offCenter).filter(offCentre).count
        #expect(off > ideal + 60, "off-centre frames: ideal \(ideal), off-center \(off)")
    }

    @Test func partialNeverSeesTheMiddleOfTheBack() throws {
        let frames = try run(.partial)
        #expect(frames.allSatisfy { matrix($0.meshFromCamera).translation.y > -0.15 })
        let readable = Set(frames.flatMap { $0.markers.filter { $0.viewAngleDegrees <= 60 }.map(\.id) })
        let back = CapLayout.standard.ids(in: .back)
        // The back's middle two columns of each ring face straight backward.
        let middle = back.enumerated().filter { [1, 2].contains($0.offset % 4) }.map(\.element)
        #expect(readable.isDisjoint(with: middle), "seen: \(readable.intersection(middle).sorted())")
    }

    @Test func restlessHeadTurnsFarMoreThanACalmOne() throws {
        // Fastest turn of the camera relative to the head between two frames: the head's own
        // turning shows up there on top of the operator's walk.
        func fastestTurn(_ scenario: Scenario) throws -> Double {
            let frames = try run(scenario)
            return zip(frames, frames.dropFirst()).map { a, b in
                (matrix(a.meshFromCamera).rotation.inverse * matrix(b.meshFromCamera).rotation).angle
            }.max() ?? 0
        }
        #expect(try fastestTurn(.restless) > 2 * fastestTurn(.ideal))
    }
}
