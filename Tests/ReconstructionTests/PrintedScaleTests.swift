import Foundation
import Geometry
import Imaging
import Markers
import Recording
import Testing

@testable import Reconstruction

struct PrintedScaleTests {
    /// A map of `count` squares whose sides measure `ratio` times the printed `side`, each
    /// scattered by `scatter` (alternating signs, relative), tilted in space.
    func map(ratio: Double, count: Int = 40, side: Double = 0.014, scatter: Double = 0.0005) -> MarkerMap {
        var map = MarkerMap()
        for id in 0..<count {
            let h = side / 2 * ratio * (1 + scatter * (id % 2 == 0 ? 1 : -1))
            let rotation = Rotation3(axis: normalized(SIMD3(1, Double(id), 2)), angle: 0.1 * Double(id))
            let centre = SIMD3(0.03 * Double(id % 6), 0.03 * Double(id / 6), 0.3)
            map.corners[id] = [SIMD3(-h, h, 0), SIMD3(h, h, 0), SIMD3(h, -h, 0), SIMD3(-h, -h, 0)].map { rotation.apply($0) + centre }
        }
        return map
    }

    @Test(arguments: [1.0, 1.0076, 0.9944, 1.0195, 0.981])
    func aDepthUnitWithinWhatPhonesAreOffIsMeasuredAndUndone(ratio: Double) throws {
        let printed = try #require(PrintedScaleRule().estimate(map(ratio: ratio)) { _ in 0.014 })
        #expect(abs(printed.ratio - ratio) < ratio * 0.0006)
        #expect(printed.markers == 40)
        #expect(printed.ratioSigma > 0 && printed.ratioSigma < 0.0003)
        #expect(printed.applied)
        #expect(abs(printed.depthScale * printed.ratio - 1) < 1e-12)
        #expect(printed.sentence.hasPrefix("set by the stickers' printed size"))
    }

    /// A cap printed at 97 % (or a layout of another size) is not the depth's fault: the
    /// depth keeps the scale and the clinic is told what to check.
    @Test(arguments: [1.03, 0.97, 1.5])
    func stickersFurtherOffThanADepthUnitLeaveTheDepthsScale(ratio: Double) throws {
        let printed = try #require(PrintedScaleRule().estimate(map(ratio: ratio)) { _ in 0.014 })
        #expect(!printed.applied && printed.depthScale == 1)
        #expect(printed.refused?.contains("printed at 100 %") == true)
        #expect(printed.sentence.hasPrefix("set by the phone's depth"))
    }

    @Test func tooFewOrScatteredStickersLeaveTheDepthsScale() throws {
        let few = try #require(PrintedScaleRule().estimate(map(ratio: 1.005, count: 5)) { _ in 0.014 })
        #expect(few.refused?.contains("only 5 stickers") == true && few.depthScale == 1)
        let scattered = try #require(PrintedScaleRule().estimate(map(ratio: 1.005, scatter: 0.05)) { _ in 0.014 })
        #expect(scattered.refused?.contains("scatter") == true && scattered.depthScale == 1)
    }

    @Test func eachMarkerIsJudgedByItsOwnPrintedSide() throws {
        var m = map(ratio: 1.004)
        let big = m.corners[3].map { corners in corners.map { corners[0] + ($0 - corners[0]) * 2 } }
        m.corners[3] = big
        let printed = try #require(PrintedScaleRule().estimate(m) { $0 == 3 ? 0.028 : 0.014 })
        #expect(abs(printed.ratio - 1.004) < 0.0006)
    }

    /// Nothing to measure, or sides that are not numbers, give no estimate rather than a trap.
    @Test func degenerateMapsGiveNoEstimate() {
        #expect(PrintedScaleRule().estimate(MarkerMap()) { _ in 0.014 } == nil)
        #expect(PrintedScaleRule().estimate(map(ratio: 1)) { _ in 0 } == nil)
        var broken = MarkerMap()
        broken.corners[0] = [SIMD3(.nan, 0, 0), .zero, .zero, .zero]
        broken.corners[1] = [.zero, .zero]
        #expect(PrintedScaleRule().estimate(broken) { _ in 0.014 } == nil)
    }

    /// The world is scaled about the map's origin: camera positions and the corners the depth
    /// lifted scale, corners placed by the printed size alone (PnP) were at that scale already.
    @Test func keyframesScaleWhatTheDepthMeasured() {
        let lifted = MarkerObservation(id: 1, pixels: [.zero], corners: [SIMD3(0.01, 0.02, 0.3)], fromDepth: true, depthSigma: 0.001)
        let pnp = MarkerObservation(id: 2, pixels: [.zero], corners: [SIMD3(0.01, 0.02, 0.3)], fromDepth: false)
        let pose = RigidTransform(rotation: Rotation3(axis: SIMD3(0, 1, 0), angle: 0.3), translation: SIMD3(0.1, 0.2, 0.3))
        let keyframe = Keyframe(frameIndex: 4, mapFromCamera: pose, observations: [lifted, pnp], unread: [lifted])
        let scaled = keyframe.scaled(by: 0.99)
        #expect(scaled.mapFromCamera.translation == pose.translation * 0.99)
        #expect(scaled.mapFromCamera.rotation == pose.rotation)
        #expect(scaled.observations[0].corners[0] == lifted.corners[0] * 0.99)
        #expect(abs(scaled.observations[0].depthSigma - 0.00099) < 1e-15)
        #expect(scaled.observations[1] == pnp)
        #expect(scaled.unread[0].corners[0] == lifted.corners[0] * 0.99)
        #expect(map(ratio: 1).scaled(by: 2).corners[5]?[2] == map(ratio: 1).corners[5].map { $0[2] * 2 })
    }

    /// The settled camera carries the scale into every later reading of the frames.
    @Test func theSettledCameraScalesTheDepthItReads() {
        var camera = SettledCamera(recorded: CameraIntrinsics(fx: 500, fy: 500, cx: 320, cy: 240, width: 640, height: 480))
        let frame = RGBDFrame(
            timestamp: 0, color: RGBAImage(width: 2, height: 1, repeating: RGBA8(r: 0, g: 0, b: 0, a: 255)),
            depth: DepthImage(width: 2, height: 1, pixels: [0.4, .nan]), colorIntrinsics: camera.recorded, depthIntrinsics: camera.recorded)
        #expect(camera.reading(frame).depth.pixels[0] == 0.4)
        camera.printedScale = PrintedScale(ratio: 1.01, ratioSigma: 0.0001, markers: 50)
        let read = camera.reading(frame)
        #expect(abs(Double(read.depth.pixels[0]) - 0.4 / 1.01) < 1e-6 && read.depth.pixels[1].isNaN)
        #expect(read.colorIntrinsics == frame.colorIntrinsics)
        camera.printedScale?.refused = "check the print"
        #expect(camera.reading(frame).depth.pixels[0] == 0.4)
        var stats = ReconstructionStatistics()
        stats.keep(camera)
        #expect(stats.camera(recorded: camera.recorded).printedScale == camera.printedScale)
    }

    /// A record from elsewhere that says a ratio no depth gives scales nothing.
    @Test func implausibleRatiosScaleNothing() {
        for ratio in [0, -1, 1e-300, 1.2, .nan, .infinity] {
            #expect(PrintedScale(ratio: ratio, ratioSigma: 0, markers: 50).depthScale == 1)
        }
    }

    /// Corrections written before the depth scale existed still read, with none.
    @Test func olderCorrectionsReadWithoutADepthScale() throws {
        let old = Data(#"{"focalScale":1.02,"principalShift":[1,2]}"#.utf8)
        let correction = try JSONDecoder().decode(CameraCorrection.self, from: old)
        #expect(correction == CameraCorrection(focalScale: 1.02, principalShift: SIMD2(1, 2)))
        let round = try JSONDecoder().decode(
            CameraCorrection.self, from: JSONEncoder().encode(CameraCorrection(focalScale: 1, depthScale: 0.99)))
        #expect(round.depthScale == 0.99)
    }
}
