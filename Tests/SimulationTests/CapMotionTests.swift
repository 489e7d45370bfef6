import Cephalometry
import Foundation
import Geometry
import Testing

@testable import Simulation

/// A cap that moves on the head: one slide in the middle of the scan, and fabric that stretches.
@Suite("A cap that moves on the head")
struct CapMotionTests {
    private func setUp(_ fit: CapFit, seed: UInt64 = 5, seconds: Double = 10) throws -> (Simulator, CapMotion) {
        var configuration = Simulator.Configuration(seed: seed, seconds: 0.1)
        configuration.capFit = fit
        let simulator = try Simulator(configuration)
        return (simulator, CapMotion(fit: fit, ids: simulator.cap.stickers.map(\.id), duration: seconds, seed: seed))
    }

    @Test func theSlideTurnsEveryStickerByItsAngleOnceInTheMiddle() throws {
        let (simulator, motion) = try setUp(CapFit(slideDegrees: 8))
        let start = motion.stickers(of: simulator.cap, at: 0, on: simulator.head, hair: nil)
        let before = zip(start, simulator.cap.stickers).map { length($0.centre - $1.centre) }.max() ?? 1
        #expect(before < 1e-9, "before the slide the cap sits as it was put on")
        #expect((3.5...5.5).contains(motion.slideStart))
        let end = motion.stickers(of: simulator.cap, at: 10, on: simulator.head, hair: nil)
        let skull = try #require(ClosestPointGrid(simulator.mesh, cellSize: 0.005))
        var turns: [Double] = []
        for (a, b) in zip(start, end) {
            turns.append(acos(min(1, dot(normalized(a.centre), normalized(b.centre)))) * 180 / .pi)
            // The sticker is still on the skull, facing out.
            #expect((skull.closest(to: b.centre, maximumDistance: 0.01)?.distance ?? 1) < 0.0007)
            #expect(dot(b.normal, normalized(b.centre)) > 0.5)
            #expect(b.damage == a.damage && b.id == a.id)
        }
        // About the axis every sticker turns by at most the slide; those far from it by nearly all.
        #expect(turns.allSatisfy { $0 <= 8.5 })
        #expect((turns.max() ?? 0) > 6)
        let moved = zip(start, end).map { length($1.centre - $0.centre) * 1000 }
        #expect((moved.max() ?? 0) > 7 && (moved.max() ?? 0) < 13, "8° moves a sticker about 10 mm")
        #expect(motion.slideShare(at: motion.slideStart + CapMotion.rampSeconds / 2) == 0.5)
    }

    @Test func theFabricStretchesTheLowerRingsOnly() throws {
        let (simulator, motion) = try setUp(CapFit(stretchMillimetres: 3))
        var most: [Int: Double] = [:]
        for step in 0..<40 {
            let now = motion.stickers(of: simulator.cap, at: Double(step) * 0.25, on: simulator.head, hair: nil)
            for (a, b) in zip(simulator.cap.stickers, now) { most[a.id] = max(most[a.id] ?? 0, length(b.centre - a.centre) * 1000) }
        }
        let byElevation = simulator.cap.stickers.map { s in (psi: simulator.cap.spots[s.id]?.y ?? 0, moved: most[s.id] ?? 0) }
        #expect(byElevation.filter { $0.psi >= 30 * Double.pi / 180 - 1e-9 }.allSatisfy { $0.moved < 1e-6 }, "the crown holds")
        let lowest = byElevation.filter { $0.psi < 0 }.map(\.moved)
        #expect(!lowest.isEmpty && lowest.allSatisfy { $0 > 0.5 && $0 < 4.5 }, "\(lowest.map { ($0 * 10).rounded() / 10 })")
        #expect(byElevation.map(\.moved).max() ?? 0 > 2)
    }

    @Test func aStillCapRendersAsBeforeAndAMovingOneShowsItsTurn() throws {
        var configuration = Simulator.Configuration(seed: 7, seconds: 6)
        let still = try Simulator(configuration)
        configuration.capFit = CapFit(slideDegrees: 8)
        let sliding = try Simulator(configuration)
        let a = try #require(still.nextFrame()), b = try #require(sliding.nextFrame())
        #expect(a.frame.color.pixels == b.frame.color.pixels, "before the slide both caps look the same")
        #expect(a.truth.capTurnDegrees == nil && b.truth.capTurnDegrees == 0)
        var last: SimulatedFrame?
        while let frame = sliding.nextFrame() { last = frame }
        let end = try #require(last)
        #expect(abs((end.truth.capTurnDegrees ?? 0) - 8) < 1e-9)
        #expect(end.truth.markers.isEmpty == false)
    }

    @Test func impossibleMotionsAreRefused() {
        #expect(!CapFit(slideDegrees: 25).isValid)
        #expect(!CapFit(stretchMillimetres: -1).isValid)
        #expect(CapFit(slideDegrees: 20, stretchMillimetres: 10).isValid)
        #expect(!CapFit.perfect.moves && CapFit(stretchMillimetres: 1).moves)
    }
}
