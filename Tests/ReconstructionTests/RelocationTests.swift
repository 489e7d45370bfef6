import Geometry
import Testing

@testable import Reconstruction

/// Two coarse placements of a lost head count as one place within 1 mm at the head's centre
/// and 0.5°, and not beyond either.
@Suite struct RelocationTests {
    static let centre = SIMD3(0.01, -0.02, 0.3)
    static let pose = RigidTransform(rotation: Rotation3(axis: normalized(SIMD3(1, 2, 3)), angle: 0.7), translation: SIMD3(0.02, 0, 0.1))

    @Test(arguments: [(0.0009, 0.0, true), (0.0011, 0.0, false), (0.0, 0.4, true), (0.0, 0.6, false)])
    func samePlace(shift: Double, degrees: Double, same: Bool) {
        // Turned about the centre, so that the turn alone does not move it.
        let turn = Rotation3(axis: SIMD3(0, 1, 0), angle: degrees * Double.pi / 180)
        let about = RigidTransform(rotation: turn, translation: Self.centre - turn.apply(Self.centre) + SIMD3(shift, 0, 0))
        #expect(MarkerlessReconstructor.samePlace(about * Self.pose, Self.pose, about: Self.centre) == same)
    }
}
