import AppModel
import AppModelTesting
import Foundation
import Geometry
import Testing

struct CloudProjectionTests {
    let camera = CameraIntrinsics(fx: 500, fy: 500, cx: 319.5, cy: 239.5, width: 640, height: 480)

    /// Points at these pixels and depths, white, no markers.
    func cloud(_ points: [(SIMD2<Double>, Double)], markers: [CloudMarker] = []) -> PointCloudPreview {
        let lifted = points.map { pixel, depth in
            let p = camera.unproject(pixel, depth: depth)
            return SIMD3(Float(p.x), Float(p.y), Float(p.z))
        }
        return PointCloudPreview(
            points: lifted, colours: Array(repeating: SIMD3(255, 255, 255), count: lifted.count), markers: markers, camera: camera, spacing: 4)
    }

    func close(_ a: SIMD2<Double>?, _ b: SIMD2<Double>, within tolerance: Double = 1e-6) -> Bool {
        guard let a else { return false }
        return abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
    }

    @Test func theDefaultViewIsTheColourPictureFittedIntoTheView() {
        let c = cloud([([100, 50], 0.5), ([320, 240], 0.3), ([600, 400], 0.4)])
        // Twice the picture's size: each pixel's centre lands at twice its coordinates, plus
        // half a pixel, as pixel centres sit at integers and the picture's edge at -0.5.
        let p = CloudProjection(cloud: c, view: CloudViewTransform(), width: 1280, height: 960)
        #expect(p.points.map(\.depth).map { ($0 * 1000).rounded() } == [500, 400, 300])  // far first
        // Points are kept in single precision: within a ten-thousandth of a point.
        #expect(close(p.points[0].position, [201, 101], within: 1e-4) && close(p.points[2].position, [641, 481], within: 1e-4))
        #expect(abs(p.dotSize - 8) < 1e-9)  // spacing 4 px at scale 2
        // A wider view centres the picture: 100 points of margin on each side.
        let wide = CloudProjection(cloud: c, view: CloudViewTransform(), width: 840, height: 480)
        #expect(close(wide.points[0].position, [200.5, 50.5], within: 1e-4))
    }

    @Test func tapsAndPicksMapBackExactlyWhenUnturnedEvenZoomed() {
        let c = cloud([([100, 50], 0.5), ([320, 240], 0.3), ([600, 400], 0.4)])
        var view = CloudViewTransform()
        view.zoom = 2.5
        let p = CloudProjection(cloud: c, view: view, width: 640, height: 480)
        for pixel in [SIMD2<Double>(10, 20), [330.25, 250.5], [639, 479]] {
            let screen = p.screenPoint(ofPixel: pixel)
            #expect(screen != nil)
            #expect(close(p.pixel(atScreenPoint: screen!), pixel, within: 1e-6))
        }
        // Zoom magnifies about the cloud's centre: distances on screen grow by the zoom.
        let unzoomed = CloudProjection(cloud: c, view: CloudViewTransform(), width: 640, height: 480)
        func span(_ q: CloudProjection) -> Double {
            let d = q.points[0].position - q.points[2].position
            return (d * d).sum().squareRoot()
        }
        #expect(abs(span(p) / span(unzoomed) - 2.5) < 1e-9)
    }

    /// Turned half round, the cloud's near side becomes its far side; a quarter turn puts a
    /// point in front of the centre beside it.
    @Test func turningMovesPointsAboutTheCentre() {
        // A point 10 cm in front of two others that fix the centre on the axis at 0.4 m.
        let c = cloud([([319.5, 239.5], 0.3), ([319.5, 239.5], 0.4), ([319.5, 239.5], 0.5)])
        var half = CloudViewTransform()
        half.yaw = .pi
        let turned = CloudProjection(cloud: c, view: half, width: 640, height: 480)
        #expect(turned.points.map { ($0.depth * 1000).rounded() } == [500, 400, 300])
        var quarter = CloudViewTransform()
        quarter.yaw = .pi / 2
        let side = CloudProjection(cloud: c, view: quarter, width: 640, height: 480)
        // All three now lie at the centre's depth, side by side.
        #expect(side.points.allSatisfy { abs($0.depth - 0.4) < 1e-6 })
        let xs = side.points.map(\.position.x).sorted()
        #expect(xs[0] < 320 - 100 && abs(xs[1] - 320) < 1e-6 && xs[2] > 320 + 100)
        var up = CloudViewTransform()
        up.pitch = .pi / 2
        let above = CloudProjection(cloud: c, view: up, width: 640, height: 480)
        #expect(Set(above.points.map { ($0.position.y * 10).rounded() }).count == 3)
    }

    @Test func pointsTurnedBehindTheViewerAreLeftOut() {
        // The centre is on the markers at 2 m; half a turn swings a point 2.5 m behind them
        // to behind the viewer, and brings the near one to the back.
        let far = camera.unproject([319.5, 239.5], depth: 2)
        let marker = CloudMarker(id: 1, state: .green, position: SIMD3(Float(far.x), Float(far.y), Float(far.z)))
        let c = cloud([([319.5, 239.5], 0.3), ([319.5, 239.5], 4.5)], markers: [marker])
        var view = CloudViewTransform()
        view.yaw = .pi
        let p = CloudProjection(cloud: c, view: view, width: 640, height: 480)
        #expect(p.points.count == 1 && p.markers.count == 1)
        #expect(abs((p.points.first?.depth ?? 0) - 3.7) < 1e-6)
    }

    /// On a turned cloud a tap lands on the surface under the finger: a pick placed on a
    /// point's dot is that point's pixel, and drawn back at that dot.
    @Test func onATurnedCloudATapOnADotPicksItsPixel() throws {
        let c = PreviewCloud.head(points: 900)
        var view = CloudViewTransform()
        view.yaw = 0.6
        view.pitch = -0.3
        view.zoom = 1.7
        let p = CloudProjection(cloud: c, view: view, width: 390, height: 300)
        // The nearest dot, so nothing hides it.
        let dot = try #require(p.points.last)
        let pixel = try #require(p.pixel(atScreenPoint: dot.position))
        let original = c.points.map { c.camera.project(SIMD3(Double($0.x), Double($0.y), Double($0.z)))! }
        #expect(original.contains { ($0 - pixel).x.magnitude < 1e-6 && ($0 - pixel).y.magnitude < 1e-6 })
        #expect(close(p.screenPoint(ofPixel: pixel), dot.position, within: 1e-6))
    }

    @Test func markersAreProjectedWithTheirStatesAndBlueOnesHaveNoPlace() {
        let c = PreviewCloud.head(green: 2, red: 1, blue: 4)
        let p = CloudProjection(cloud: c, view: CloudViewTransform(), width: 640, height: 480)
        #expect(p.markers.count == 3)
        #expect(p.markers.filter { $0.state == .green }.count == 2 && !p.markers.contains { $0.state == .blue })
        #expect(zip(p.markers, p.markers.dropFirst()).allSatisfy { $0.depth >= $1.depth })
    }
}
