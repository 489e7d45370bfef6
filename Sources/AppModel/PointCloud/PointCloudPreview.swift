import Feedback
import Geometry
import Imaging
import Markers
import Recording

/// A cap marker as the point cloud shows it.
public struct CloudMarker: Sendable, Equatable {
    /// Its ID on the cap.
    public var id: Int
    /// Green (in this frame, seen before), red (in this frame for the first time) or blue
    /// (seen before, not in this frame).
    public var state: MarkerState
    /// Its centre in camera space, metres; nil for a blue marker, which this frame does not show.
    public var position: SIMD3<Float>?

    /// A marker from its parts.
    public init(id: Int, state: MarkerState, position: SIMD3<Float>?) {
        self.id = id
        self.state = state
        self.position = position
    }
}

/// What the scan and replay screens draw of one frame: a thinned-out cloud of its depth
/// points in camera space (metres; x right, y down, z away from the camera), each with the
/// colour of its pixel, and the cap's markers coloured by state.
public struct PointCloudPreview: Sendable, Equatable {
    /// Points in camera space, metres.
    public var points: [SIMD3<Float>]
    /// The colour of each point, red, green and blue.
    public var colours: [SIMD3<UInt8>]
    /// The markers the guide knows of: those in the frame and those seen before.
    public var markers: [CloudMarker]
    /// The colour picture's camera: the default view shows the cloud as that picture, and
    /// landmark picks are its pixels.
    public var camera: CameraIntrinsics
    /// Distance between neighbouring points in the colour picture, pixels: how large a dot
    /// must be for the cloud to look closed.
    public var spacing: Double

    /// A cloud from its parts; `colours` holds one entry per point.
    public init(points: [SIMD3<Float>], colours: [SIMD3<UInt8>], markers: [CloudMarker], camera: CameraIntrinsics, spacing: Double) {
        precondition(points.count == colours.count, "one colour per point")
        self.points = points
        self.colours = colours
        self.markers = markers
        self.camera = camera
        self.spacing = spacing
    }

    /// Points a phone can draw at the camera's rate in a SwiftUI canvas.
    public static let defaultMaxPoints = 3000

    /// How many `markers` there are in `state`.
    public func count(_ state: MarkerState) -> Int { markers.filter { $0.state == state }.count }
}

extension PointCloudPreview {
    /// The cloud of `frame`: every n-th depth pixel in both directions with a depth, n as
    /// small as keeps the count within `maxPoints`, and the markers `states` names (the
    /// guide's verdict) placed through the depth at their corners in `detected`.
    ///
    /// It runs for every guided frame on the phone, so it only reads the pixels it keeps.
    public init(
        frame: RGBDFrame, detected: [DetectedMarker], states: [(id: Int, state: MarkerState)],
        maxPoints: Int = Self.defaultMaxPoints
    ) {
        let depth = frame.depth
        let color = frame.color
        let width = depth.width, height = depth.height
        // The depth camera's model at the depth map's own size, whatever size it was given for.
        let intrinsics =
            frame.depthIntrinsics.width == width && frame.depthIntrinsics.height == height
            ? frame.depthIntrinsics : frame.depthIntrinsics.scaled(toWidth: width, height: height)
        let step = Self.step(width: width, height: height, maxPoints: maxPoints)
        let columns = Array(Swift.stride(from: step / 2, to: width, by: step))
        let rows = Array(Swift.stride(from: step / 2, to: height, by: step))
        let rayX = columns.map { Float((Double($0) - intrinsics.cx) / intrinsics.fx) }
        // Colour pixels under each kept depth pixel; both images have their pixel centres at
        // integers, so scale about the half-pixel edge.
        let colourColumns = columns.map { Self.scaledIndex($0, from: width, to: color.width) }
        var points: [SIMD3<Float>] = []
        var colours: [SIMD3<UInt8>] = []
        points.reserveCapacity(columns.count * rows.count)
        colours.reserveCapacity(columns.count * rows.count)
        depth.pixels.withUnsafeBufferPointer { z in
            color.pixels.withUnsafeBufferPointer { rgba in
                for y in rows {
                    let rayY = Float((Double(y) - intrinsics.cy) / intrinsics.fy)
                    let colourRow = Self.scaledIndex(y, from: height, to: color.height) * color.width
                    let row = y * width
                    for (i, x) in columns.enumerated() {
                        let d = z[row + x]
                        // NaN holes and zeros fail this test; so does infinity.
                        guard d > 0, d < .infinity else { continue }
                        points.append(SIMD3(rayX[i] * d, rayY * d, d))
                        let c = rgba.isEmpty ? RGBA8(gray: 128) : rgba[colourRow + colourColumns[i]]
                        colours.append(SIMD3(c.r, c.g, c.b))
                    }
                }
            }
        }
        // The median needs a sort of every depth; only a marker without depth of its own needs it.
        var fallbackDepth: Float??
        var markers: [CloudMarker] = []
        markers.reserveCapacity(states.count)
        for entry in states {
            guard entry.state != .blue, let marker = detected.first(where: { $0.id == entry.id }) else {
                markers.append(CloudMarker(id: entry.id, state: entry.state, position: nil))
                continue
            }
            let position = Self.centre(of: marker, depth: depth, colorSize: (color.width, color.height), intrinsics: intrinsics) {
                if fallbackDepth == nil { fallbackDepth = .some(Statistics.upperMedian(points.map(\.z))) }
                return fallbackDepth!
            }
            markers.append(CloudMarker(id: entry.id, state: entry.state, position: position))
        }
        let colourCamera = frame.colorIntrinsics
        self.init(
            points: points, colours: colours, markers: markers, camera: colourCamera,
            spacing: Double(step) * Double(colourCamera.width) / Double(max(width, 1)))
    }

    /// The sampling step for a `width`x`height` depth map: the smallest that keeps the grid
    /// within `maxPoints` points.
    public static func step(width: Int, height: Int, maxPoints: Int) -> Int {
        guard width > 0, height > 0 else { return 1 }
        let budget = max(maxPoints, 1)
        var step = max(1, Int((Double(width * height) / Double(budget)).squareRoot().rounded(.down)))
        func cells(_ s: Int) -> Int { ((width - s / 2 + s - 1) / s) * ((height - s / 2 + s - 1) / s) }
        while cells(step) > budget { step += 1 }
        return step
    }

    private static func scaledIndex(_ index: Int, from size: Int, to other: Int) -> Int {
        guard size != other, size > 0 else { return index }
        return min(other - 1, max(0, Int(((Double(index) + 0.5) * Double(other) / Double(size) - 0.5).rounded())))
    }

    /// A marker's centre in camera space: its centre pixel lifted by the median depth at the
    /// centre and the corners; where the sensor has none there (too close), the cloud's
    /// median depth keeps the marker on screen, since a red marker matters most then.
    private static func centre(
        of marker: DetectedMarker, depth: DepthImage, colorSize: (Int, Int), intrinsics: CameraIntrinsics,
        fallback: () -> Float?
    ) -> SIMD3<Float>? {
        let sx = Double(depth.width) / Double(max(colorSize.0, 1))
        let sy = Double(depth.height) / Double(max(colorSize.1, 1))
        func inDepth(_ p: SIMD2<Double>) -> SIMD2<Double> { SIMD2((p.x + 0.5) * sx - 0.5, (p.y + 0.5) * sy - 0.5) }
        let samples = ([marker.centre] + marker.corners).compactMap { corner -> Float? in
            let p = inDepth(corner)
            let x = Int(p.x.rounded()), y = Int(p.y.rounded())
            guard depth.contains(x: x, y: y) else { return nil }
            let d = depth[x, y]
            return d > 0 && d < .infinity ? d : nil
        }
        guard let z = Statistics.upperMedian(samples) ?? fallback() else { return nil }
        let point = intrinsics.unproject(inDepth(marker.centre), depth: Double(z))
        return SIMD3(Float(point.x), Float(point.y), Float(point.z))
    }
}
