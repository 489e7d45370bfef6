import Geometry
import Testing

@testable import Simulation

@Suite("The parent's hand on the head")
struct ParentHandTests {
    /// The hand cups the nape and the back of the head, touching it without reaching into it.
    @Test func theHandTouchesTheBackOfTheHeadWithoutEnteringIt() throws {
        let head = try HeadModel(HeadParameters())
        let mesh = HeadMesh.make(head)
        let hand = SceneGeometry.hand(behind: mesh)
        var touching = 0
        // The palm and fingers lie behind the head; the thumb beside the neck.
        for v in hand.vertices where v.x < 0.055 {
            let front = mesh.vertices.filter { abs($0.z - v.z) < 0.003 && abs($0.x - v.x) < 0.003 && $0.y < 0 }.map(\.y)
            guard let surface = front.min() else { continue }
            #expect(v.y < surface + 0.0015, "a hand vertex \(v) lies inside the head (its back at y \(surface))")
            if v.y > surface - 0.004 { touching += 1 }
        }
        #expect(touching >= 4, "the fingers rest on the head: \(touching) vertices within 4 mm")
        for v in hand.vertices where v.x >= 0.055 {
            let side = mesh.vertices.filter { abs($0.z - v.z) < 0.003 && abs($0.y - v.y) < 0.003 && $0.x > 0 }.map(\.x)
            guard let surface = side.max() else { continue }
            #expect(v.x > surface - 0.0015, "a thumb vertex \(v) lies inside the head (its side at x \(surface))")
        }
        #expect(hand.vertices.allSatisfy { $0.y < 0 && $0.z < 0.03 }, "behind the head, below its widest outline")
    }

    /// The hand is part of the room's scene, so it stays with the parent while the head turns;
    /// the truth is the head's.
    @Test func theHandIsTheParentsNotTheHeads() throws {
        var configuration = Simulator.Configuration(seed: 4, seconds: 0.1, sensor: .ideal, intrinsics: smallCamera)
        let plain = try Simulator(configuration)
        configuration.parentHand = true
        let held = try Simulator(configuration)
        #expect(held.mesh.vertices == plain.mesh.vertices && held.landmarks == plain.landmarks)
        let withHand = SceneGeometry(headMesh: held.seenMesh, skullFaceCount: 0, cap: held.cap, hand: true)
        let without = SceneGeometry(headMesh: plain.seenMesh, skullFaceCount: 0, cap: plain.cap)
        #expect(withHand.headVertices == without.headVertices)
        #expect(withHand.worldVertices.count > without.worldVertices.count)
        #expect(withHand.materials.filter { $0 == .hand }.count == withHand.faces.count - without.faces.count)
    }
}
