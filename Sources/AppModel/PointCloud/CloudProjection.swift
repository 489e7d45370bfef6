import Feedback
import Foundation
import Geometry

/// How the point cloud is turned and zoomed.
public struct CloudViewTransform: Sendable, Equatable {
    /// Rotation about the vertical axis, radians.
    public var yaw = 0.0
    /// Rotation about the horizontal axis, radians (limited to ±90°).
    public var pitch = 0.0
    /// Magnification (0.5–8).
    public var zoom = 1.0

    /// The default view.
    public init() {}

    /// Whether the view shows the cloud as the camera saw it.
    public var isUnturned: Bool { yaw == 0 && pitch == 0 }
}

/// A point of the cloud on screen.
public struct ScreenPoint: Sendable, Equatable {
    /// Where it is drawn, in the view's points.
    public var position: SIMD2<Double>
    /// Its colour, red, green and blue.
    public var colour: SIMD3<UInt8>
    /// Distance from the viewer, metres: farther points are drawn first.
    public var depth: Double
}

/// A marker on screen.
public struct ScreenMarker: Sendable, Equatable {
    public var id: Int
    public var state: MarkerState
    /// Where it is drawn, in the view's points.
    public var position: SIMD2<Double>
    /// Distance from the viewer, metres.
    public var depth: Double
}

/// The point-cloud views' orbit camera: the cloud is turned about its centre (the markers'
/// median, on the head, else the points') by yaw and pitch, seen through the colour camera,
/// magnified about that centre by the zoom, and the camera's picture is fitted into the view.
/// At the default view it shows the frame exactly as the colour picture, so a landmark pick
/// (a pixel of that picture) lands where it was placed. Views only draw what this computes.
public struct CloudProjection: Sendable {
    /// The cloud's points on screen, farthest first: drawing them in order paints near over far.
    public let points: [ScreenPoint]
    /// The markers this frame shows, farthest first; blue markers have no place in it.
    public let markers: [ScreenMarker]
    /// Dot size, points: neighbouring dots touch at the default view.
    public let dotSize: Double

    private let cloud: PointCloudPreview
    private let orbit: Orbit

    /// `cloud` under `view` in a view of `width` x `height` points.
    public init(cloud: PointCloudPreview, view: CloudViewTransform, width: Double, height: Double) {
        let anchors = cloud.markers.compactMap(\.position)
        let centre = Self.median(anchors.isEmpty ? cloud.points : anchors) ?? SIMD3(0, 0, 1)
        let orbit = Orbit(camera: cloud.camera, view: view, centre: centre, width: width, height: height)
        self.cloud = cloud
        self.orbit = orbit
        dotSize = min(max(cloud.spacing * orbit.scale * view.zoom, 1), 12)
        var points: [ScreenPoint] = []
        points.reserveCapacity(cloud.points.count)
        for (point, colour) in zip(cloud.points, cloud.colours) {
            guard let seen = orbit.screenAndDepth(SIMD3(Double(point.x), Double(point.y), Double(point.z))) else { continue }
            points.append(ScreenPoint(position: seen.screen, colour: colour, depth: seen.depth))
        }
        self.points = points.sorted { $0.depth > $1.depth }
        markers = cloud.markers.compactMap { marker -> ScreenMarker? in
            guard let p = marker.position, let seen = orbit.screenAndDepth(SIMD3(Double(p.x), Double(p.y), Double(p.z))) else {
                return nil
            }
            return ScreenMarker(id: marker.id, state: marker.state, position: seen.screen, depth: seen.depth)
        }
        .sorted { $0.depth > $1.depth }
    }

    /// Where a pixel of the colour picture appears on screen, lifted to the cloud's surface by
    /// the depth of the point nearest to it; nil when it falls behind the viewer.
    public func screenPoint(ofPixel pixel: SIMD2<Double>) -> SIMD2<Double>? {
        // Unturned, every depth along the pixel's ray lands on the same spot.
        let depth = orbit.view.isUnturned ? orbit.centre.z : nearestDepth(toPixel: pixel) ?? orbit.centre.z
        return orbit.screenAndDepth(cloud.camera.unproject(pixel, depth: depth))?.screen
    }

    /// The pixel of the colour picture under a point of the screen: on the turned cloud, the
    /// point at the depth of the dot nearest to it. At the default view that is the pixel the
    /// picture shows there, whatever the depth.
    public func pixel(atScreenPoint point: SIMD2<Double>) -> SIMD2<Double>? {
        guard orbit.scale > 0 else { return nil }
        let depth = nearestDot(to: point)?.depth ?? orbit.centre.z
        return orbit.pixel(atScreenPoint: point, depth: depth)
    }

    /// The dot the finger is on: the front-most of those it covers, else the closest one.
    private func nearestDot(to point: SIMD2<Double>) -> ScreenPoint? {
        let reach = dotSize * dotSize
        var covered: ScreenPoint?
        var closest: ScreenPoint?
        var closestDistance = Double.infinity
        for dot in points {
            let d = point - dot.position
            let distance = (d * d).sum()
            // Points run far to near, so a later covered dot is in front of an earlier one.
            if distance <= reach { covered = dot }
            if distance < closestDistance {
                closestDistance = distance
                closest = dot
            }
        }
        return covered ?? closest
    }

    /// The depth of the surface the picture shows at `pixel`: the nearest to the camera of
    /// the points within one sampling step of it, else of the closest point.
    private func nearestDepth(toPixel pixel: SIMD2<Double>) -> Double? {
        let reach = cloud.spacing * cloud.spacing
        var covered: Double?
        var closest: Double?
        var closestDistance = Double.infinity
        for point in cloud.points {
            let p = SIMD3(Double(point.x), Double(point.y), Double(point.z))
            guard let seen = cloud.camera.project(p) else { continue }
            let d = seen - pixel
            let distance = (d * d).sum()
            if distance <= reach, p.z < (covered ?? .infinity) { covered = p.z }
            if distance < closestDistance {
                closestDistance = distance
                closest = p.z
            }
        }
        return covered ?? closest
    }

    static func median(_ points: [SIMD3<Float>]) -> SIMD3<Double>? {
        guard !points.isEmpty else { return nil }
        func middle(_ values: [Float]) -> Double { Double(Statistics.upperMedian(values) ?? 0) }
        return SIMD3(middle(points.map(\.x)), middle(points.map(\.y)), middle(points.map(\.z)))
    }
}

/// The orbit camera's arithmetic: turn about the centre, project through the colour camera,
/// zoom about the centre's pixel, fit the picture into the view; and back.
private struct Orbit: Sendable {
    let camera: CameraIntrinsics
    let view: CloudViewTransform
    let centre: SIMD3<Double>
    let centrePixel: SIMD2<Double>
    let scale: Double
    let offset: SIMD2<Double>
    let yaw: (cos: Double, sin: Double)
    let pitch: (cos: Double, sin: Double)

    /// Points nearer the eye than this are behind the camera or too close to draw, metres.
    static let nearest = 0.01

    init(camera: CameraIntrinsics, view: CloudViewTransform, centre: SIMD3<Double>, width: Double, height: Double) {
        self.camera = camera
        self.view = view
        self.centre = centre
        centrePixel = camera.project(centre) ?? SIMD2(camera.cx, camera.cy)
        scale = min(width / Double(max(camera.width, 1)), height / Double(max(camera.height, 1)))
        offset = SIMD2((width - Double(camera.width) * scale) / 2, (height - Double(camera.height) * scale) / 2)
        yaw = (cos(view.yaw), sin(view.yaw))
        pitch = (cos(view.pitch), sin(view.pitch))
    }

    /// Yaw about the vertical (y) axis, then pitch about the horizontal (x) axis.
    func turn(_ p: SIMD3<Double>) -> SIMD3<Double> {
        var v = p - centre
        v = SIMD3(v.x * yaw.cos + v.z * yaw.sin, v.y, -v.x * yaw.sin + v.z * yaw.cos)
        v = SIMD3(v.x, v.y * pitch.cos - v.z * pitch.sin, v.y * pitch.sin + v.z * pitch.cos)
        return v + centre
    }

    func unturn(_ p: SIMD3<Double>) -> SIMD3<Double> {
        var v = p - centre
        v = SIMD3(v.x, v.y * pitch.cos + v.z * pitch.sin, -v.y * pitch.sin + v.z * pitch.cos)
        v = SIMD3(v.x * yaw.cos - v.z * yaw.sin, v.y, v.x * yaw.sin + v.z * yaw.cos)
        return v + centre
    }

    /// Where a camera-space point is drawn and how far from the eye it is; nil behind it.
    func screenAndDepth(_ p: SIMD3<Double>) -> (screen: SIMD2<Double>, depth: Double)? {
        let q = view.isUnturned ? p : turn(p)
        guard q.z > Self.nearest, let pixel = camera.project(q) else { return nil }
        let zoomed = centrePixel + (pixel - centrePixel) * view.zoom
        // Pixel centres sit at integers: the picture's edge is half a pixel out.
        return (offset + (zoomed + 0.5) * scale, q.z)
    }

    /// The colour pixel of the camera-space point `depth` from the eye under a screen point.
    func pixel(atScreenPoint point: SIMD2<Double>, depth: Double) -> SIMD2<Double>? {
        let zoomed = (point - offset) / scale - 0.5
        let pixel = centrePixel + (zoomed - centrePixel) / view.zoom
        let inView = SIMD3((pixel.x - camera.cx) / camera.fx * depth, (pixel.y - camera.cy) / camera.fy * depth, depth)
        return camera.project(unturn(inView))
    }
}
