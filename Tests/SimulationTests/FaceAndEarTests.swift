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

    /// A real ear's depth: the concha's floor below the skin behind a tragus that barely stands
    /// out, seen so by a camera looking at the side of the head (the outermost surface of the
    /// whole mesh along the side's normal), the tragion still at the notch's mouth.
    @Test(arguments: [
        EarShape(conchaDepthMM: 5, tragusHeightMM: 2),
        EarShape(scale: 0.85, tiltDegrees: 28, protrusionDegrees: 12, conchaDepthMM: 3, tragusHeightMM: 1.8),
    ])
    func aSunkConchaLiesBelowTheSkinBehindALowTragus(_ ear: EarShape) throws {
        let mm = 0.001 * ear.scale
        let theta = ear.tiltDegrees * Double.pi / 180
        func headAxes(_ b: Double, _ v: Double) -> (back: Double, up: Double) {
            ((b * cos(theta) + v * sin(theta)) * mm, (-b * sin(theta) + v * cos(theta)) * mm)
        }
        func height(_ b: Double, _ v: Double) -> Double {
            let (back, up) = headAxes(b, v)
            return ear.height(back: back, up: up)
        }
        #expect(height(0, 0) == 0, "the notch's mouth is skin")
        #expect(abs(height(2.2, -4.75) - ear.tragusHeightMM * mm) < 1e-9, "the tragus stands as high as asked")
        #expect(abs(height(8, -2) + ear.conchaDepthMM * mm) < 1e-9, "the concha's floor lies as deep as asked")
        #expect(height(20, 2) > 0.005 * ear.scale, "the pinna still stands off toward its back")

        let head = try HeadModel(HeadParameters(ears: ear))
        let mesh = HeadMesh.make(head)
        for side in [-1.0, 1.0] {
            let tragion = side < 0 ? head.landmarks.leftTragion : head.landmarks.rightTragion
            for (b, v) in [(8.0, -2.0), (2.2, -4.75), (11.0, 0.0), (12.5, -2.0), (8.0, -7.5), (4.0, 2.0)] {
                let (back, up) = headAxes(b, v)
                let skin = head.sidePoint(y: tragion.y - back, z: tragion.z + up, side: side)
                let seen = try #require(Self.outermost(mesh, y: skin.y, z: skin.z, side: side))
                let expected = skin.x + side * (height(b, v) - HeadMesh.reliefSink)
                #expect(abs(seen - expected) < 0.0002, "side \(side), (\(b), \(v)) mm: seen \(seen), expected \(expected)")
            }
        }
        // A clay ear leaves the skull as it was.
        let clay = HeadMesh.skull(try HeadModel(HeadParameters()))
        let sunk = HeadMesh.skull(try HeadModel(HeadParameters(ears: EarShape(conchaDepthMM: 5))))
        #expect(clay.vertices != sunk.vertices)
        #expect(clay.vertices == HeadMesh.skull(try HeadModel(HeadParameters(ears: EarShape(conchaDepthMM: 0)))).vertices)
    }

    /// The outermost crossing of the line at (`y`, `z`) with the mesh, seen from `side`: its x.
    static func outermost(_ mesh: TriangleMesh, y: Double, z: Double, side: Double) -> Double? {
        var best: Double?
        for face in mesh.faces {
            let a = mesh.vertices[Int(face.x)], b = mesh.vertices[Int(face.y)], c = mesh.vertices[Int(face.z)]
            guard a.x * side > 0 else { continue }
            // Barycentric coordinates of (y, z) in the triangle's projection onto the y–z plane.
            let d = (b.y - a.y) * (c.z - a.z) - (c.y - a.y) * (b.z - a.z)
            guard abs(d) > 1e-15 else { continue }
            let u = ((y - a.y) * (c.z - a.z) - (c.y - a.y) * (z - a.z)) / d
            let w = ((b.y - a.y) * (z - a.z) - (y - a.y) * (b.z - a.z)) / d
            guard u >= 0, w >= 0, u + w <= 1 else { continue }
            let x = a.x + u * (b.x - a.x) + w * (c.x - a.x)
            if best.map({ x * side > $0 * side }) ?? true { best = x }
        }
        return best
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
