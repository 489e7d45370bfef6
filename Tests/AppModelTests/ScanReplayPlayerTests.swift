import AppModel
import AppModelTesting
import Feedback
import Foundation
import Geometry
import Recording
import Simulation
import Testing

@MainActor
struct ScanReplayPlayerTests {
    @Test func playsEveryFrameOfAScanFileAndRestarts() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID().uuidString).hscan")
        defer { try? FileManager.default.removeItem(at: url) }
        let scene = SyntheticScene(seed: 3, width: 160, height: 120)
        let intrinsics = CameraIntrinsics(fx: scene.fx, fy: scene.fy, cx: scene.cx, cy: scene.cy, width: scene.width, height: scene.height)
        let header = ScanHeader(
            device: "test", appVersion: HeadScanVersion.current, colorIntrinsics: intrinsics, depthIntrinsics: intrinsics,
            capLayoutName: "standard", metadata: [:])
        let writer = try ScanWriter(url: url, header: header)
        for index in 0..<3 {
            let (color, depth) = scene.frame(at: index)
            try writer.append(
                RGBDFrame(
                    timestamp: scene.timestamp(at: index), color: color, depth: depth, colorIntrinsics: intrinsics, depthIntrinsics: intrinsics))
        }
        try writer.close()

        let player = try ScanReplayPlayer(url: url, settings: FeedbackSettings())
        #expect(player.frameCount == 3)
        var indices: [Int] = []
        while let frame = try await player.nextFrame() {
            indices.append(frame.index)
            // The synthetic scene has no cap, so no frame overlaps the (empty) marker map.
            #expect(!frame.overlapSufficient && frame.percent == 0)
        }
        #expect(indices == [0, 1, 2])
        try player.restart()
        #expect(try await player.nextFrame()?.index == 0)
    }
}
