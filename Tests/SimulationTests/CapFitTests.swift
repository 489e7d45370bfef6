import Cephalometry
import Geometry
import Testing

@testable import Simulation

@Suite("A cap that sits badly")
struct CapFitTests {
    private func simulator(_ fit: CapFit, seed: UInt64 = 3) throws -> Simulator {
        var configuration = Simulator.Configuration(seed: seed, seconds: 0.1)
        configuration.capFit = fit
        return try Simulator(configuration)
    }

    /// How far each sticker's centre stands off the skull, along its normal, metres.
    private func standOffs(_ simulator: Simulator) -> [Double] {
        let perfect = Dictionary(
            uniqueKeysWithValues: (try? self.simulator(.perfect, seed: simulator.configuration.seed))?.cap.stickers.map { ($0.id, $0) } ?? [])
        return simulator.cap.stickers.compactMap { s in perfect[s.id].map { ((s.centre - $0.centre) * $0.normal).sum() } }
    }

    @Test func aPerfectFitIsTodaysCap() throws {
        let fitted = try simulator(.perfect), plain = try Simulator(Simulator.Configuration(seed: 3, seconds: 0.1))
        #expect(fitted.cap.stickers == plain.cap.stickers && fitted.cap.folded.isEmpty)
    }

    /// Hair lifts every sticker by 0 to 3 mm, unevenly; the truth keeps the skull.
    @Test func hairLiftsTheCapUnevenlyAndTheTruthKeepsTheSkull() throws {
        let haired = try simulator(CapFit(hairMillimetres: 3))
        let lifts = standOffs(haired)
        #expect(lifts.count == haired.cap.stickers.count)
        #expect(lifts.allSatisfy { $0 >= -1e-9 && $0 <= 0.003 + 1e-9 })
        #expect((lifts.max() ?? 0) - (lifts.min() ?? 0) > 0.001, "the stand-off is uneven")
        let plain = try simulator(.perfect)
        #expect(haired.mesh.vertices == plain.mesh.vertices)
        #expect(haired.head.landmarks == plain.head.landmarks)
    }

    /// The camera sees the fabric lifted where the stickers are, and the skin below the cap
    /// where it was.
    @Test func theSeenSurfaceIsLiftedOnlyUnderTheCap() throws {
        let head = try HeadModel(HeadParameters())
        let mesh = HeadMesh.make(head)
        let lifted = HeadMesh.lifted(mesh, of: head, by: HairField(heightMillimetres: 3, seed: 5))
        let moves = zip(mesh.vertices, lifted.vertices).map { (a, b) in (z: a.z, d: ((b - a) * (b - a)).sum().squareRoot()) }
        #expect(moves.filter { $0.z < Cap.lowerEdge }.allSatisfy { $0.d == 0 })
        #expect(moves.map(\.d).max() ?? 0 <= 0.003 + 1e-9)
        #expect(moves.filter { $0.z > Cap.lowerEdge + HeadMesh.hairFade }.map(\.d).max() ?? 0 > 0.0015, "lifted by more than half the hair somewhere")
    }

    @Test func aCapThatRidesUpFoldsItsLowestRingUnder() throws {
        let riding = try simulator(CapFit(ridesUp: true)), plain = try simulator(.perfect)
        #expect(riding.cap.folded.count == 16)
        #expect(riding.cap.stickers.count == plain.cap.stickers.count - 16)
        let lowest = plain.cap.stickers.map(\.centre.z).min() ?? 0
        #expect(riding.cap.stickers.allSatisfy { $0.centre.z > lowest + 0.005 })
    }

    @Test func aThirdOfTheStickersGone() throws {
        let plain = try simulator(.perfect)
        let thinned = try simulator(CapFit(lostShare: 1.0 / 3))
        let count = plain.cap.layout.markers.count
        #expect(thinned.cap.dropped.count == Int((Double(count) / 3).rounded()))
        #expect(thinned.cap.stickers.count == count - thinned.cap.dropped.count)
    }

    @Test func anImpossibleFitIsRefused() {
        #expect(throws: SimulationError.self) { try simulator(CapFit(hairMillimetres: 11)) }
        #expect(throws: SimulationError.self) { try simulator(CapFit(lostShare: 1.5)) }
    }
}

@Suite("Damaged stickers")
struct StickerDamageTests {
    @Test func aThirdOfTheStickersAreSmearedTornOrCreased() throws {
        var configuration = Simulator.Configuration(seed: 4, seconds: 0.1)
        configuration.capFit = CapFit(damagedShare: 1.0 / 3)
        let damaged = try Simulator(configuration)
        let kinds = damaged.cap.stickers.compactMap(\.damage?.kind)
        #expect(kinds.count == Int((Double(damaged.cap.stickers.count) / 3).rounded()))
        #expect(Set(kinds) == Set(StickerDamage.Kind.allCases))
        let plain = try Simulator(Simulator.Configuration(seed: 4, seconds: 0.1))
        #expect(damaged.cap.stickers.map(\.centre) == plain.cap.stickers.map(\.centre))
    }

    @Test func aTornCornerShowsTheFabricAndASmearInksPaper() {
        var random = Xoshiro256(seed: 1)
        let side = 8
        let ink: (Int, Int) -> Bool = { row, column in row >= 1 && column >= 1 && row <= 6 && column <= 6 && (row + column) % 2 == 0 }
        let torn = StickerDamage.make(.torn, side: side, isInk: ink, random: &random)
        #expect(torn.cells.values.allSatisfy { $0 == .fabric } && torn.cells.count >= 6)
        let smeared = StickerDamage.make(.smeared, side: side, isInk: ink, random: &random)
        #expect(!smeared.cells.isEmpty && smeared.cells.values.allSatisfy { $0 == .ink })
        #expect(smeared.cells.keys.allSatisfy { !ink($0 / side, $0 % side) }, "a smear inks only paper that was white")
        let creased = StickerDamage.make(.creased, side: side, isInk: ink, random: &random)
        #expect(creased.cells.count == side - 2)
    }
}
