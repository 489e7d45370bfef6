import Foundation
import Geometry
import Testing

struct PoseInterpolationTests {
    static let start = RigidTransform(rotation: Rotation3(axis: SIMD3(1, 2, 2) / 3, angle: 0.4), translation: SIMD3(0.1, -0.2, 0.3))
    static let turn = Rotation3(axis: SIMD3(0, 0.6, 0.8), angle: 1.2)
    static let end = RigidTransform(rotation: start.rotation * turn, translation: SIMD3(0.4, 0.1, 0.3))

    @Test func theEndsAreTheTwoPoses() {
        let a = Self.start.interpolated(to: Self.end, 0), b = Self.start.interpolated(to: Self.end, 1)
        #expect((a.rotation.inverse * Self.start.rotation).angle < 1e-9 && length(a.translation - Self.start.translation) < 1e-12)
        #expect((b.rotation.inverse * Self.end.rotation).angle < 1e-9 && length(b.translation - Self.end.translation) < 1e-12)
    }

    /// A share of the way turns that share of the angle about the same axis.
    @Test(arguments: [0.25, 0.5, 0.8]) func aShareOfTheWayTurnsThatShareAboutTheSameAxis(_ t: Double) {
        let between = Self.start.interpolated(to: Self.end, t)
        let expected = Self.start.rotation * Rotation3(axis: SIMD3(0, 0.6, 0.8), angle: 1.2 * t)
        #expect((between.rotation.inverse * expected).angle < 1e-9)
        #expect(length(between.translation - (Self.start.translation * (1 - t) + Self.end.translation * t)) < 1e-12)
    }

    @Test func twoEqualPosesGiveTheSamePose() {
        let same = Self.start.interpolated(to: Self.start, 0.5)
        #expect((same.rotation.inverse * Self.start.rotation).angle < 1e-9)
    }
}
