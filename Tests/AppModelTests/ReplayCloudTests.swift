import AppModel
import AppModelTesting
import Feedback
import Foundation
import ScanLibrary
import Testing

@MainActor
struct ReplayCloudTests {
    func pausedReplay(_ lib: TemporaryLibrary) async throws -> ReplayModel {
        let model = ReplayModel(
            session: try lib.savedSession(id: 1), library: lib.library,
            player: ScriptedReplayPlayer(overlap: [true, true], cloud: PreviewCloud.head()), clock: TestClock(), strings: strings())
        model.togglePlay()
        await model.tick()
        #expect(model.phase == .paused)
        return model
    }

    @Test func aTapPlacesTheSelectedLandmarkOnThePixelUnderIt() async throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        let model = try await pausedReplay(lib)
        // The picture (640x480) shown at half size.
        model.tap(at: [160, 120], width: 320, height: 240)
        #expect(model.annotations.landmarks.isEmpty)  // nothing selected yet
        model.select(.nasion)
        model.tap(at: [160, 120], width: 320, height: 240)
        let pick = try #require(model.pickOnScreen(.nasion))
        #expect(abs(pick.x - 319.5) < 1e-9 && abs(pick.y - 239.5) < 1e-9)
        let projection = try #require(model.projection(width: 320, height: 240))
        let dots = model.landmarkDots(in: projection)
        #expect(dots.count == 1 && dots[0].landmark == .nasion && dots[0].isSelected)
        #expect(abs(dots[0].position.x - 160) < 1e-6 && abs(dots[0].position.y - 120) < 1e-6)
    }

    /// Dragging turns the cloud, except while a landmark is being placed: then it moves the
    /// landmark, also on a turned and zoomed cloud, where it stays under the finger.
    @Test func aDragTurnsTheCloudOrMovesTheSelectedLandmark() async throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        // Three points on the camera's axis, 30 (red), 40 (green) and 50 cm (blue) away.
        let camera = PreviewCloud.head().camera
        let cloud = PointCloudPreview(
            points: [SIMD3(0, 0, 0.3), SIMD3(0, 0, 0.4), SIMD3(0, 0, 0.5)], colours: [SIMD3(255, 0, 0), SIMD3(0, 255, 0), SIMD3(0, 0, 255)],
            markers: [], camera: camera, spacing: 4)
        let model = ReplayModel(
            session: try lib.savedSession(id: 1), library: lib.library, player: ScriptedReplayPlayer(overlap: [true], cloud: cloud),
            clock: TestClock(), strings: strings())
        model.togglePlay()
        await model.tick()
        func near(_ p: CloudProjection) -> SIMD2<Double> { p.points.first { $0.colour == SIMD3(255, 0, 0) }!.position }
        let before = try #require(model.projection(width: 640, height: 480))
        model.drag(to: [400, 200], by: [30, 0], width: 640, height: 480)
        #expect(abs(model.view.yaw + 0.3) < 1e-12 && model.view.pitch == 0)
        // The near side follows the finger: the near point moved right, then down.
        let right = try #require(model.projection(width: 640, height: 480))
        #expect(near(right).x > near(before).x + 10)
        model.drag(to: [400, 210], by: [0, 10], width: 640, height: 480)
        #expect(abs(model.view.pitch - 0.1) < 1e-12)
        #expect(near(try #require(model.projection(width: 640, height: 480))).y > near(right).y + 3)
        model.zoom(by: 1.5)

        model.select(.noseTip)
        let turned = try #require(model.projection(width: 640, height: 480))
        let target = near(turned)
        let view = model.view
        model.drag(to: target, by: [25, 5], width: 640, height: 480)
        #expect(model.view == view)  // placing, not turning
        let dots = model.landmarkDots(in: try #require(model.projection(width: 640, height: 480)))
        #expect(dots.count == 1 && abs(dots[0].position.x - target.x) < 1e-6 && abs(dots[0].position.y - target.y) < 1e-6)
        // On the picture the pick is the near point's own pixel: the centre of the picture.
        let pick = try #require(model.pickOnScreen(.noseTip))
        #expect(abs(pick.x - 319.5) < 1e-6 && abs(pick.y - 239.5) < 1e-6)
        #expect(model.pickCount(.noseTip) == 1 && model.hasChanges)
    }

    @Test func whilePlayingATapPlacesNothingAndTheLegendCountsTheFramesMarkers() async throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        let model = ReplayModel(
            session: try lib.savedSession(id: 1), library: lib.library,
            player: ScriptedReplayPlayer(overlap: [false], cloud: PreviewCloud.head(green: 5, red: 2, blue: 9)), clock: TestClock(),
            strings: strings())
        #expect(model.projection(width: 100, height: 100) == nil)
        #expect(model.legend.map(\.text) == ["0 connected to earlier frames", "0 seen for the first time", "0 seen before, not in view"])
        await model.tick()
        model.tap(at: [50, 50], width: 100, height: 100)
        #expect(model.annotations.landmarks.isEmpty)
        #expect(model.legend.map(\.state) == [.green, .red, .blue])
        #expect(model.legend.map(\.text) == ["5 connected to earlier frames", "2 seen for the first time", "9 seen before, not in view"])
    }
}
