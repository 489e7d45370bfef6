import Feedback
import Foundation
import Geometry
import Recording
import Scanning
import Simulation

/// Small synthetic recordings in a private temporary folder. The synthetic scene carries no
/// cap, so the guide finds no markers and, after its debounce, asks to vibrate.
struct Recordings {
    let folder: URL
    let scene = SyntheticScene(seed: 7, width: 64, height: 48)

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("scanning-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    var intrinsics: CameraIntrinsics {
        CameraIntrinsics(fx: scene.fx, fy: scene.fy, cx: scene.cx, cy: scene.cy, width: scene.width, height: scene.height)
    }

    func frame(_ index: Int) -> RGBDFrame {
        let (color, depth) = scene.frame(at: index)
        return RGBDFrame(timestamp: scene.timestamp(at: index), color: color, depth: depth, colorIntrinsics: intrinsics, depthIntrinsics: intrinsics)
    }

    func writer(_ name: String, capLayoutName: String = "standard-57") throws -> ScanWriter {
        let header = ScanHeader(
            device: "test", appVersion: "0", colorIntrinsics: intrinsics, depthIntrinsics: intrinsics, capLayoutName: capLayoutName)
        return try ScanWriter(url: folder.appendingPathComponent(name), header: header, options: .init(colorCodec: .png))
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }
}

/// Remembers every guided frame and every pause, in order.
final class Tape: PipelineSink {
    private(set) var indices: [Int] = []
    private(set) var events: [FeedbackEvent] = []
    private(set) var pauses = 0
    private(set) var finished = false

    func receive(_ frame: GuidedFrame, guide: ScanGuide) {
        indices.append(frame.index)
        events += frame.update.events
    }

    func paused(at time: Double, events: [FeedbackEvent]) {
        pauses += 1
        self.events += events
    }

    func finish(at time: Double, events: [FeedbackEvent], guide: ScanGuide) {
        finished = true
        self.events += events
    }
}
