import AppModel
import Feedback
import Foundation
import Geometry
import Imaging
import Markers
import Recording
import Scanning
import Testing

/// Frames of a white wall 40 cm away carrying printed cap markers, each at a fixed place.
enum MarkerWall {
    static let camera = CameraIntrinsics(fx: 250, fy: 250, cx: 159.5, cy: 119.5, width: 320, height: 240)

    /// Where marker `id` (0, 1 or 2) is printed: its top-left corner, 60 px wide.
    static func origin(_ id: Int) -> (x: Int, y: Int) { (20 + id * 100, 90) }

    static func frame(_ ids: [Int], index: Int) throws -> RGBDFrame {
        var gray = GrayImage(width: 320, height: 240, repeating: 255)
        let renderer = MarkerRenderer(dictionary: try CapLayout.standard.dictionary())
        for id in ids { try renderer.draw(id: id, side: 60, at: origin(id), into: &gray) }
        return RGBDFrame(
            timestamp: Double(index) / 30, color: gray.map { RGBA8(gray: $0) }, depth: DepthImage(width: 320, height: 240, repeating: 0.4),
            colorIntrinsics: camera, depthIntrinsics: camera)
    }

    /// Markers 0 and 1 (new), then 0, 1 and 2 (0 and 1 again, 2 new), then 0 alone.
    static let script = [[0, 1], [0, 1, 2], [0]]

    static func states(_ cloud: PointCloudPreview?) -> [Int: MarkerState] {
        Dictionary(uniqueKeysWithValues: (cloud?.markers ?? []).map { ($0.id, $0.state) })
    }
}

struct CloudFromFramesTests {
    /// Red the first time a marker is seen, green when seen again, blue once out of the
    /// picture; shown markers sit on the wall where they are printed.
    @MainActor @Test func theReplayShowsEachFramesCloudWithItsMarkerStates() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("markers-\(UUID().uuidString).hscan")
        defer { try? FileManager.default.removeItem(at: url) }
        let header = ScanHeader(
            device: "test", appVersion: HeadScanVersion.current, colorIntrinsics: MarkerWall.camera, depthIntrinsics: MarkerWall.camera,
            layout: .standard)
        let writer = try ScanWriter(url: url, header: header, options: .init(colorCodec: .png))
        for (index, ids) in MarkerWall.script.enumerated() { try writer.append(MarkerWall.frame(ids, index: index)) }
        try writer.close()

        let player = try ScanReplayPlayer(url: url, settings: FeedbackSettings())
        var frames: [ReplayFrameInfo] = []
        while let frame = try await player.nextFrame() { frames.append(frame) }
        #expect(frames.count == 3)
        #expect(MarkerWall.states(frames[0].cloud) == [0: .red, 1: .red])
        #expect(MarkerWall.states(frames[1].cloud) == [0: .green, 1: .green, 2: .red])
        #expect(MarkerWall.states(frames[2].cloud) == [0: .green, 1: .blue, 2: .blue])
        let cloud = try #require(frames[1].cloud)
        #expect(cloud.points.count > 2000 && cloud.points.allSatisfy { $0.z == 0.4 })
        for marker in cloud.markers {
            let o = MarkerWall.origin(marker.id)
            // The printed square's middle: 60 px from the corner pixel's outer edge.
            let centre = MarkerWall.camera.unproject([Double(o.x) + 29.5, Double(o.y) + 29.5], depth: 0.4)
            let p = try #require(marker.position)
            #expect(abs(Double(p.x) - centre.x) < 0.002 && abs(Double(p.y) - centre.y) < 0.002 && p.z == 0.4, "marker \(marker.id)")
        }
        #expect(frames[2].cloud?.markers.first { $0.id == 1 }?.position == nil)
    }

    /// The live recorder's sink: the guide's progress and the frame's cloud, every frame.
    @Test func theLiveSinkReportsProgressAndTheCloudOfEveryGuidedFrame() throws {
        var reports: [ScanProgressReport] = []
        let guide = try FrameGuide(
            layout: .standard, settings: FeedbackSettings(), sinks: [ScanProgressSink(maxPoints: 500) { reports.append($0) }])
        for (index, ids) in MarkerWall.script.enumerated() { guide.guide(try MarkerWall.frame(ids, index: index), index: index) }
        #expect(reports.count == 3)
        #expect(reports.map(\.percent) == [3, 5, 5])  // 2, then 3 of 57 markers
        #expect(reports[1].missingMarkers.count == 54 && !reports[1].missingMarkers.contains(2))
        #expect(MarkerWall.states(reports[2].cloud) == [0: .green, 1: .blue, 2: .blue])
        #expect(reports.allSatisfy { ($0.cloud?.points.count ?? 0) > 400 && ($0.cloud?.points.count ?? 0) <= 500 })
        #expect(reports[1].markers.count == 3)
        // Observations guided without pictures report progress without a cloud.
        let observation = FrameObservation(timestamp: 1, width: 320, height: 240, markers: [])
        guide.guide(observation, index: 3)
        #expect(reports.count == 4 && reports[3].cloud == nil && reports[3].percent == 5)
    }
}
