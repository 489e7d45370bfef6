import Geometry
import Imaging
import Markers
import Reconstruction
import Recording
import Testing

/// A scan placed without markers: a frame between two placed ones takes the pose between
/// theirs; one farther from placed frames is refused with the nearest placed frame named.
struct FrameLocatorWithoutMarkersTests {
    static let camera = CameraIntrinsics(fx: 100, fy: 100, cx: 40, cy: 30, width: 80, height: 60)
    static let frame = RGBDFrame(
        timestamp: 0, color: RGBAImage(width: 80, height: 60, repeating: RGBA8(gray: 0)), depth: DepthImage(width: 80, height: 60, repeating: .nan),
        colorIntrinsics: camera, depthIntrinsics: camera)
    static let first = RigidTransform(rotation: .identity, translation: SIMD3(0, 0, 0.3))
    static let second = RigidTransform(rotation: Rotation3(axis: SIMD3(0, 1, 0), angle: 0.06), translation: SIMD3(0.018, 0, 0.3))

    static func locator() throws -> FrameLocator {
        var locator = try FrameLocator(map: MarkerMap(corners: [:]), keyframes: [30: first, 36: second, 60: first], layout: .standard)
        locator.interpolationGap = 6
        return locator
    }

    @Test func aFrameBetweenTwoPlacedOnesTakesThePoseBetweenThem() throws {
        let pose = try Self.locator().locate(Self.frame, index: 32)
        #expect(!pose.isKeyframe)
        let expected = Self.first.interpolated(to: Self.second, 2.0 / 6)
        #expect(length(pose.mapFromCamera.translation - expected.translation) < 1e-12)
        #expect(abs(pose.mapFromCamera.translation.x - 0.006) < 1e-12)
        #expect(try Self.locator().locate(Self.frame, index: 36).isKeyframe)
    }

    @Test(arguments: [(40, 36), (55, 60), (10, 30), (70, 60)])
    func aFrameFarFromPlacedOnesIsRefusedNamingTheNearest(_ index: Int, _ nearest: Int) throws {
        #expect(throws: ReconstructionError.frameNotPlaced(index: index, nearest: nearest)) {
            try Self.locator().locate(Self.frame, index: index)
        }
        let message = ReconstructionError.frameNotPlaced(index: index, nearest: nearest).description
        #expect(message.contains("frame \(nearest)"))
    }
}
