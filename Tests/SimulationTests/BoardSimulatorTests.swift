import Foundation
import Geometry
import Imaging
import Markers
import Testing

@testable import Simulation

struct BoardSimulatorTests {
    /// Also through a lens with strong barrel distortion: the pictures are warped through it,
    /// the truth's corners go through it, and the recording states it.
    @Test(arguments: [0.0, -0.15]) func theBoardIsSeenWhereTheTruthSaysAndDepthLiesOnItsPlane(k1: Double) throws {
        var configuration = BoardSimulator.Configuration(seconds: 0.2, distance: 0.8)
        configuration.intrinsics = CameraIntrinsics(
            fx: 400, fy: 400, cx: 200, cy: 160, width: 400, height: 320, distortion: RadialDistortion(k1: k1))
        let simulator = try BoardSimulator(configuration)
        let frame = try #require(simulator.nextFrame())
        #expect(frame.truth.markers.count == 12)
        #expect(frame.frame.colorIntrinsics.distortion == RadialDistortion(k1: k1))
        let detector = MarkerDetector(dictionary: try MarkerDictionary.named("apriltag_36h11"))
        let found = detector.detect(in: frame.frame.color)
        #expect(found.count == 12)
        for marker in found {
            let truth = try #require(frame.truth.markers.first { $0.id == marker.id })
            for (a, b) in zip(marker.corners, truth.corners) { #expect(distance(a, SIMD2(b[0], b[1])) < 1, "marker \(marker.id)") }
        }
        // Depth at the board's centre pixel: on the board's plane, within the sensor's noise at 0.8 m (4 mm).
        let pose = simulator.boardFromCamera(at: frame.truth.timestamp)
        let k = configuration.intrinsics
        let centre = try #require(k.project(pose.inverse.apply(.zero)))
        let measured = Double(frame.frame.depth[Int(centre.x.rounded()), Int(centre.y.rounded())])
        let ray = k.unproject(centre.rounded(.toNearestOrAwayFromZero), depth: 1)
        let normal = pose.inverse.applyToVector(SIMD3(0, 0, 1)), origin = pose.inverse.apply(.zero)
        let expected = dot(normal, origin) / dot(normal, ray)
        #expect(abs(measured - expected) < 0.016)
    }

    @Test func boardsThatCannotBePrintedAreRefused() {
        #expect(throws: SimulationError.self) {
            try MarkerBoard(rows: 0, columns: 4, markerSide: 0.1, gap: 0.02, dictionaryName: "apriltag_36h11").validate()
        }
        #expect(throws: SimulationError.self) {
            try MarkerBoard(rows: 30, columns: 30, markerSide: 0.01, gap: 0.002, dictionaryName: "4x4_50").validate()
        }
        #expect(throws: SimulationError.self) {
            try MarkerBoard(rows: 2, columns: 2, markerSide: 0.01, gap: 0.002, dictionaryName: "no_such").validate()
        }
        #expect(throws: SimulationError.self) { try BoardSimulator(BoardSimulator.Configuration(distance: 5)) }
    }
}

/// A depth-to-colour registration that is off: the depth map moves against the picture.
struct DepthShiftTests {
    @Test func theMapMovesByWholePixelsAndTheEdgeHasNoDepth() {
        let image = DepthImage(width: 4, height: 3, pixels: (0..<12).map(Float.init))
        let moved = image.shifted(by: SIMD2(1, -1))
        // What was at (x, y) lands at (x + 1, y - 1).
        #expect(moved[1, 0] == image[0, 1])
        #expect(moved[3, 1] == image[2, 2])
        #expect(moved[0, 0].isNaN && moved[2, 2].isNaN)
        #expect(moved.pixels.filter { !$0.isNaN }.count == 3 * 2)
        #expect(image.shifted(by: .zero).pixels == image.pixels)
    }

    @Test func aShiftedSensorRendersItsDepthShifted() throws {
        func firstFrame(_ shift: SIMD2<Int>?) throws -> SimulatedFrame {
            var configuration = BoardSimulator.Configuration(seconds: 0.1, distance: 0.8)
            configuration.sensor.depthShiftPixels = shift
            return try #require(try BoardSimulator(configuration).nextFrame())
        }
        let plain = try firstFrame(nil), shifted = try firstFrame(SIMD2(3, -2))
        let expected = plain.frame.depth.shifted(by: SIMD2(3, -2))
        // Equal pixel for pixel, no depth counting as equal to no depth.
        let same = zip(shifted.frame.depth.pixels, expected.pixels).allSatisfy { $0 == $1 || ($0.isNaN && $1.isNaN) }
        #expect(same && shifted.frame.depth.pixels.contains { !$0.isNaN })
        let colourSame = shifted.frame.color == plain.frame.color
        #expect(colourSame)
        // Sensors written before the shift existed still read, with none.
        let old = try JSONDecoder().decode(SensorModel.self, from: try JSONEncoder().encode(SensorModel()))
        #expect(old.depthShiftPixels == nil)
    }
}
