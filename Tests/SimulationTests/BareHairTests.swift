import Geometry
import Imaging
import Testing

@testable import Simulation

@Suite("A bare head with hair")
struct BareHairTests {
    private func simulator(_ fit: CapFit, seed: UInt64 = 7, sensor: SensorModel = SensorModel()) throws -> Simulator {
        var configuration = Simulator.Configuration(seed: seed, seconds: 0.1, sensor: sensor, intrinsics: smallCamera)
        configuration.capFit = fit
        return try Simulator(configuration)
    }

    /// The hairline runs high on the forehead, at the cap's edge over the temples and ears, and
    /// low at the nape.
    @Test func theHairlineLeavesTheForeheadBareAndReachesTheNape() {
        #expect(!BareHair.covers(SIMD3(0, 0.07, 0.035)), "mid-forehead, 35 mm above the plane")
        #expect(BareHair.covers(SIMD3(0, 0.06, 0.05)), "above the forehead's hairline")
        #expect(BareHair.covers(SIMD3(0.07, 0, 0.02)), "above the ear")
        #expect(!BareHair.covers(SIMD3(0.07, 0, 0.005)), "beside the ear, below the cap's edge")
        #expect(BareHair.covers(SIMD3(0, -0.08, -0.01)), "the back of the head below the plane")
        #expect(!BareHair.covers(SIMD3(0, -0.08, -0.03)), "the neck")
    }

    /// No cap: no sticker anywhere; the truth is the skull and its landmarks, as with a cap.
    @Test func aBareHeadHasNoStickersAndTheTruthKeepsTheSkull() throws {
        let bare = try simulator(.bare(BareHair(shade: .dark, thicknessMillimetres: 4)))
        let capped = try simulator(.perfect)
        #expect(bare.cap.stickers.isEmpty)
        #expect(bare.mesh.vertices == capped.mesh.vertices)
        #expect(bare.landmarks == capped.landmarks)
        #expect(bare.measurements == capped.measurements)
    }

    /// The camera meets the hair: under it, the skull's surface stands off by a third of the
    /// thickness to all of it; the face below the hairline is where it was (the ears and the
    /// nose, meshed apart from the skull, carry no hair).
    @Test func theSeenSurfaceIsTheHairsAboveTheHairlineOnly() throws {
        let thickness = 6.0
        let bare = try simulator(.bare(BareHair(shade: .light, thicknessMillimetres: thickness)))
        var under: [Double] = [], bareSkin: [Double] = []
        let skullVertices = HeadMesh.skull(bare.head).vertices.count
        for (skull, seen) in zip(bare.mesh.vertices.prefix(skullVertices), bare.seenMesh.vertices) {
            let lift = length(seen - skull)
            if skull.z > BareHair.hairline(at: skull) + HeadMesh.hairFade {
                under.append(lift)
            } else if skull.z <= BareHair.hairline(at: skull) {
                bareSkin.append(lift)
            }
        }
        #expect(under.count > 1000 && bareSkin.count > 1000)
        #expect(bareSkin.allSatisfy { $0 == 0 })
        let least = under.min() ?? 0, most = under.max() ?? 0
        #expect(least >= thickness / 3 / 1000 - 1e-9, "the hair never lies flat: \(least * 1000) mm")
        #expect(most <= thickness / 1000 + 1e-9)
        #expect(most - least > thickness / 4 / 1000, "the hair stands off unevenly")
    }

    /// Dark hair swallows the infrared pattern: a frame of a dark-haired head has far less
    /// depth than the same frame of a light-haired one, which loses a little against a cap;
    /// the colour on the vault is the hair's.
    @Test func darkHairLosesItsDepthInPatches() throws {
        let hair = { (shade: BareHair.Shade) in BareHair(shade: shade, thicknessMillimetres: 3) }
        let dark = try #require(try simulator(.bare(hair(.dark))).nextFrame())
        let light = try #require(try simulator(.bare(hair(.light))).nextFrame())
        let capped = try #require(try simulator(CapFit(lostShare: 1)).nextFrame())
        func valid(_ f: SimulatedFrame) -> Int { f.frame.depth.pixels.filter { $0.isFinite }.count }
        #expect(valid(dark) < valid(light) * 85 / 100, "dark \(valid(dark)), light \(valid(light))")
        #expect(valid(light) < valid(capped), "light hair loses some depth too")
        #expect(valid(light) > valid(capped) * 9 / 10)
        func brightness(_ f: SimulatedFrame) -> Double {
            let pixels = f.frame.color.pixels
            return pixels.reduce(0.0) { $0 + Double($1.r) + Double($1.g) + Double($1.b) } / Double(pixels.count)
        }
        #expect(brightness(dark) < brightness(light) - 10)
    }

    @Test func aBareHeadWearsNothingOfACap() throws {
        let hair = BareHair(shade: .dark, thicknessMillimetres: 3)
        for fit in [
            CapFit(hairMillimetres: 2, lostShare: 1, bareHair: hair), CapFit(lostShare: 1, printed: true, bareHair: hair),
            CapFit(ridesUp: true, lostShare: 1, bareHair: hair), CapFit(lostShare: 1, slideDegrees: 5, bareHair: hair),
            .bare(BareHair(shade: .light, thicknessMillimetres: 0.2)), .bare(BareHair(shade: .light, thicknessMillimetres: 20)),
        ] {
            #expect(throws: SimulationError.self) { try simulator(fit) }
        }
    }
}
