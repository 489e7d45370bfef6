import Foundation
import Geometry
import Testing

@testable import Simulation

/// The simulated face and ears carry their landmarks where anatomy puts them.
struct FaceAndEarTests {
    static let heads = [
        HeadParameters(),
        HeadParameters(lengthMM: 126, cranialIndex: 94, cvai: 12, flatSide: .left, widestOutlineHeightMM: 40, faceDepthMM: 80),
    ]

    @Test(arguments: heads)
    func theNasionIsTheDeepestPointOfTheMidlineBetweenNoseAndForehead(_ parameters: HeadParameters) throws {
        let head = try HeadModel(parameters)
        let nasion = head.landmarks.nasion
        #expect(nasion.x == 0 && nasion.z == 0)
        #expect(abs(head.frontPoint(x: 0, z: 0).y - nasion.y) < 1e-9)
        // The profile, skin plus nose, from the nose's root to the forehead under the cap.
        for z in stride(from: FaceRelief.noseRoot, through: 0.014, by: 0.0005) where abs(z) > 1e-9 {
            let skin = head.frontPoint(x: 0, z: z).y + max(0, FaceRelief.nose(x: 0, z: z) - HeadMesh.reliefSink)
            #expect(skin > nasion.y, "at \(z * 1000) mm the profile lies \((nasion.y - skin) * 1000) mm deeper than the nasion")
        }
    }

    @Test(arguments: heads)
    func theNoseTipIsWhereTheNoseStandsOutFurthestFromTheFace(_ parameters: HeadParameters) throws {
        let head = try HeadModel(parameters)
        let tip = head.landmarks.noseTip
        let skin = head.frontPoint(x: 0, z: tip.z)
        #expect(abs(tip.y - skin.y - (FaceRelief.noseProtrusion - HeadMesh.reliefSink)) < 1e-12)
        for x in stride(from: -0.012, through: 0.012, by: 0.0005) {
            for z in stride(from: -0.022, through: -0.002, by: 0.0005) {
                #expect(FaceRelief.nose(x: x, z: z) <= FaceRelief.nose(x: 0, z: FaceRelief.noseTipHeight))
            }
        }
        // The mesh has a vertex there (its grid steps 0.5 mm through the tip).
        let nearest = HeadMesh.nose(head).vertices.map { length($0 - tip) }.min()!
        #expect(nearest < 0.0001)
    }

    @Test(arguments: [
        EarShape(), EarShape(scale: 0.85, tiltDegrees: 0, protrusionDegrees: 10), EarShape(scale: 1.2, tiltDegrees: 30, protrusionDegrees: 35),
    ])
    func theTragionLiesInTheNotchBetweenTragusAndCrus(_ ear: EarShape) {
        let mm = 0.001 * ear.scale
        let theta = ear.tiltDegrees * Double.pi / 180
        // Points given in the ear's own axes, turned into the head's (back, up).
        func height(_ b: Double, _ v: Double) -> Double {
            ear.height(back: (b * cos(theta) + v * sin(theta)) * mm, up: (-b * sin(theta) + v * cos(theta)) * mm)
        }
        #expect(height(0, 0) == 0, "the notch's mouth is skin")
        #expect(height(1, 0) < HeadMesh.reliefSink, "the notch goes in behind the mouth")
        #expect(height(2.2, -4.75) > 0.004 * ear.scale, "the tragus stands below it")
        #expect(height(2.2, 4.75) > 0.0035 * ear.scale, "the crus of the helix above it")
        #expect(height(-0.3, -4.75) == 0 && height(-0.3, 4.75) == 0, "both touch the face at the notch's front")
        #expect(height(20, 2) > 0.005 * ear.scale, "the pinna stands off toward its back")
    }

    @Test func theCapPressesTheTopOfTheEarFlatAndHidesNoMarker() throws {
        let head = try HeadModel(HeadParameters(ears: EarShape(scale: 1.25, tiltDegrees: 0)))
        let ear = HeadMesh.ear(head, side: 1)
        #expect(ear.vertices.allSatisfy { $0.z <= Cap.lowerEdge + 1e-9 })
        let cap = try Cap(layout: .standard, head: head)
        let lowest = cap.stickers.flatMap(\.corners).map(\.z).min()!
        #expect(lowest > Cap.lowerEdge)
    }

    @Test func truthWrittenBeforeEarsWereModelledReadsAsTheStandardEar() throws {
        var json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(HeadParameters(cvai: 5))) as! [String: Any]
        json["ears"] = nil
        let decoded = try JSONDecoder().decode(HeadParameters.self, from: JSONSerialization.data(withJSONObject: json))
        #expect(decoded == HeadParameters(cvai: 5))
        #expect(throws: SimulationError.self) { try HeadModel(HeadParameters(ears: EarShape(scale: 2))) }
    }
}

extension FaceAndEarTests {
    @Test func everyVertexIsFinite() throws {
        let head = try HeadModel(HeadParameters())
        for (name, part) in [
            ("skull", HeadMesh.skull(head)), ("left ear", HeadMesh.ear(head, side: -1)), ("right ear", HeadMesh.ear(head, side: 1)),
            ("nose", HeadMesh.nose(head)),
        ] {
            let bad = part.vertices.filter { !($0.x.isFinite && $0.y.isFinite && $0.z.isFinite) }
            #expect(bad.isEmpty, "\(name): \(bad.count) of \(part.vertices.count) vertices not finite, e.g. \(bad.prefix(2))")
        }
    }
}
