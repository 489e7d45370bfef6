import Foundation
import Geometry
import Testing

@testable import Simulation

@Suite("A face that moves while the skull does not")
struct JawMotionTests {
    /// The landmarks and the vault never follow the jaw; the chin does, fully.
    @Test func onlyTheFaceBelowTheMouthFollowsTheJaw() throws {
        let head = try HeadModel(HeadParameters())
        let l = head.landmarks
        for point in [l.nasion, l.noseTip, l.leftTragion, l.rightTragion, SIMD3(0, 0, 0.09), SIMD3(0, -0.08, -0.03)] {
            #expect(JawMotion.share(at: point) == 0, "\(point)")
        }
        let chin = head.frontPoint(x: 0, z: -0.045)
        #expect(JawMotion.share(at: chin) == 1)
        let lip = head.frontPoint(x: 0, z: (JawMotion.upperLip + JawMotion.lowerLip) / 2)
        #expect(JawMotion.share(at: lip) > 0.2 && JawMotion.share(at: lip) < 0.8, "the skin across the mouth stretches")
    }

    /// Opening turns the chin back and down about the hinge, by the angle times its distance.
    @Test func anOpenJawTurnsTheChinBackAndDown() throws {
        let head = try HeadModel(HeadParameters())
        let chin = head.frontPoint(x: 0, z: -0.045)
        let angle = JawMotion.maximumAngle
        let moved = JawMotion.moved(chin, share: 1, angle: angle)
        #expect(moved.y < chin.y && moved.z < chin.z)
        let radius = length(chin - JawMotion.hinge)
        #expect(abs(length(moved - chin) - 2 * radius * sin(angle / 2)) < 1e-9)
        #expect(abs(length(moved - JawMotion.hinge) - radius) < 1e-12, "a turn, not a stretch")
        #expect(JawMotion.moved(chin, share: 1, angle: 0) == chin)
    }

    @Test func theMouthShowsOnlyWhenOpen() {
        let gap = SIMD3(0.0, 0.07, JawMotion.upperLip - 0.004)
        #expect(JawMotion.isInsideMouth(gap, angle: 0.2))
        #expect(!JawMotion.isInsideMouth(gap, angle: 0))
        #expect(!JawMotion.isInsideMouth(SIMD3(0.03, 0.07, JawMotion.upperLip - 0.004), angle: 0.2), "beside the mouth")
    }

    /// A crying infant opens its jaw wide in spells and keeps it nearly closed between them;
    /// the truth is the still head's, and a scan without crying renders as before.
    @Test func aCryingInfantOpensItsJawInSpells() throws {
        var configuration = Simulator.Configuration(seed: 9, seconds: 30, sensor: .ideal, intrinsics: smallCamera)
        configuration.crying = true
        let crying = try Simulator(configuration)
        let angles = stride(from: 0.0, to: 30, by: 0.1).compactMap { crying.jawDegrees(at: $0) }
        #expect(angles.count == 300)
        #expect((angles.max() ?? 0) > 10 && (angles.max() ?? 0) <= JawMotion.maximumAngle * 180 / Double.pi + 1e-9)
        #expect(angles.filter { $0 < 2 }.count > 150, "closed or nearly so most of the time")
        configuration.crying = false
        let calm = try Simulator(configuration)
        #expect(calm.jawDegrees(at: 5) == nil)
        #expect(crying.landmarks == calm.landmarks && crying.measurements == calm.measurements)
    }

    /// The moving face changes the depth only below the mouth: the frames of a crying and a
    /// calm infant agree wherever the jaw is not.
    @Test func theDepthChangesOnlyWhereTheJawIs() throws {
        var configuration = Simulator.Configuration(seed: 9, seconds: 30, sensor: .ideal, intrinsics: smallCamera)
        configuration.crying = true
        let crying = try Simulator(configuration)
        configuration.crying = false
        let calm = try Simulator(configuration)
        // Only frames with the jaw wide open are rendered (every fifth of them); the others
        // are stepped over.
        var changed: [Int] = []
        for index in 0..<crying.frameCount {
            let t = Double(index) / Simulator.frameRate
            guard (crying.jawDegrees(at: t) ?? 0) > 8, index % 5 == 0 else {
                _ = crying.advance()
                _ = calm.advance()
                continue
            }
            let a = try #require(crying.nextFrame()), b = try #require(calm.nextFrame())
            changed.append(
                zip(a.frame.depth.pixels, b.frame.depth.pixels).filter { x, y in
                    x.isFinite != y.isFinite || (x.isFinite && abs(x - y) > 0.0005)
                }.count)
        }
        let frames = changed.count
        #expect(frames >= 10)
        let pixels = smallCamera.width * smallCamera.height
        #expect(changed.filter { $0 > 0 }.count >= 2, "the open jaw shows in the depth: \(changed)")
        #expect(changed.allSatisfy { $0 < pixels / 20 }, "only the lower face changes: \(changed) of \(pixels) pixels")
    }
}
