import AppModel
import Feedback
import Foundation
import Geometry
import HeadScanTesting
import Markers
import Recording

// A 640x480 TrueDepth-sized frame of the synthetic scene (a head, a torso and a wall, with
// depth holes), and twelve detected markers on it, half seen before.
let scene = SyntheticScene(seed: 1, width: 640, height: 480)
let camera = CameraIntrinsics(fx: scene.fx, fy: scene.fy, cx: scene.cx, cy: scene.cy, width: 640, height: 480)
let (color, depth) = scene.frame(at: 0)
let frame = RGBDFrame(timestamp: 0, color: color, depth: depth, colorIntrinsics: camera, depthIntrinsics: camera)
let detected = (0..<12).map { i in
    let c = SIMD2(Double(200 + (i % 4) * 60), Double(160 + (i / 4) * 60))
    return DetectedMarker(id: i, corners: [c + [-8, -8], c + [8, -8], c + [8, 8], c + [-8, 8]])
}
let inView: [(id: Int, state: MarkerState)] = detected.map { ($0.id, $0.id % 2 == 0 ? MarkerState.green : .red) }
let states = inView + (12..<40).map { (id: $0, state: MarkerState.blue) }
let holes = depth.pixels.filter { !($0 > 0) }.count

func microseconds(_ runs: Int, _ body: () -> Int) -> (median: Double, p95: Double, result: Int) {
    var times: [Double] = []
    var result = 0
    let clock = ContinuousClock()
    for _ in 0..<runs {
        let start = clock.now
        result &+= body()
        let d = clock.now - start
        times.append(Double(d.components.seconds) * 1e6 + Double(d.components.attoseconds) * 1e-12)
    }
    times.sort()
    return (times[runs / 2], times[runs * 95 / 100], result)
}

print("frame 640x480, \(holes) depth holes (\(holes * 100 / depth.pixels.count) %), 12 markers in view, 28 out of view")
for budget in [1000, 3000, 5000] {
    let cloud = PointCloudPreview(frame: frame, detected: detected, states: states, maxPoints: budget)
    let t = microseconds(500) { PointCloudPreview(frame: frame, detected: detected, states: states, maxPoints: budget).points.count }
    print(String(format: "sampling, budget %5d: %4d points, median %7.1f µs, p95 %7.1f µs per frame", budget, cloud.points.count, t.median, t.p95))
}
let cloud = PointCloudPreview(frame: frame, detected: detected, states: states)
var turned = CloudViewTransform()
turned.yaw = 0.7
turned.pitch = -0.3
turned.zoom = 1.6
for (name, view) in [("default view", CloudViewTransform()), ("turned view ", turned)] {
    let t = microseconds(500) { CloudProjection(cloud: cloud, view: view, width: 390, height: 292).points.count }
    print(String(format: "projection, %@: median %7.1f µs, p95 %7.1f µs per frame", name, t.median, t.p95))
}
