import Feedback
import Geometry
import Imaging
import Reconstruction
import Recording

/// What the guide without markers reads from each frame: the head in the depth picture, and
/// from the same tracking the reconstruction without markers runs, where the camera looks
/// from.
///
/// When a view cannot be placed the tracking starts again from the head seen in it, put where
/// the fused head is (`MarkerlessTracker.recentresWhenLost`): a phone stepped back on "too
/// close" is found again at once.
///
/// The head's frame is the first view's: its camera counts as straight in front of the face,
/// the phone's top as the crown's direction. A scan begun from above or beside the face turns
/// the regions by as much; they are wide enough (90°) for that to shift, not spoil, them.
public final class HeadViewer {
    /// Frames are tracked every this many (the reconstruction places every third); the frames
    /// between keep the last one's placement for the position.
    public let trackEvery: Int
    private let tracker: MarkerlessTracker
    private var lastPlaced: Bool?
    private var guided = 0

    /// A viewer tracking with `reconstructor`'s settings every `trackEvery`-th frame.
    public init(reconstructor: MarkerlessReconstructor = MarkerlessReconstructor(), trackEvery: Int = 3) {
        tracker = MarkerlessTracker(reconstructor, recentresWhenLost: true)
        self.trackEvery = max(1, trackEvery)
    }

    /// A viewer registering every `pixelStep`-th pixel each way and needing `minimumPoints` of
    /// them: for small test pictures.
    convenience init(reconstructor: MarkerlessReconstructor, trackEvery: Int, pixelStep: Int, minimumPoints: Int) {
        var r = reconstructor
        r.sample(every: pixelStep, needing: minimumPoints)
        self.init(reconstructor: r, trackEvery: trackEvery)
    }

    /// Frames the tracking placed so far.
    public var placedFrames: Int { tracker.poses.count }

    /// The head in `frame` (recording frame `index`), its box in the colour picture's pixels.
    public func view(_ frame: RGBDFrame, index: Int) -> HeadView {
        defer { guided += 1 }
        let depth = frame.depth
        let missing = Self.missingShare(depth)
        let sphere = headSphere(depth: depth, intrinsics: frame.depthIntrinsics)
        let box = sphere.flatMap { Self.box(of: $0, depth: frame.depthIntrinsics, colourWidth: frame.color.width, colourHeight: frame.color.height) }
        let distance = sphere.map { max(0, length($0.centre) - $0.radius) }
        var camera: SIMD3<Double>?
        if guided % trackEvery == 0 {
            switch tracker.add(frame, index: index) {
            case .noHeadYet: lastPlaced = nil
            case .lost: lastPlaced = false
            case .placed(let pose):
                lastPlaced = true
                if let centre = tracker.region?.centre { camera = Self.headFrame(pose.worldFromCamera.translation - centre) }
            }
        }
        return HeadView(box: box, distance: distance, missingDepth: missing, placed: lastPlaced, camera: camera)
    }

    /// A vector in the first view's camera frame (x the phone's top, y the operator's right,
    /// z forward) in the head's frame (x the right ear, y the face, z the crown), for a first
    /// view that faces the face upright.
    static func headFrame(_ v: SIMD3<Double>) -> SIMD3<Double> { SIMD3(-v.y, -v.z, v.x) }

    /// Share of the middle third of the picture (each way, every second pixel) without depth.
    static func missingShare(_ depth: DepthImage) -> Double {
        var missing = 0, all = 0
        for y in stride(from: depth.height / 3, to: 2 * depth.height / 3, by: 2) {
            for x in stride(from: depth.width / 3, to: 2 * depth.width / 3, by: 2) {
                all += 1
                if !(depth[x, y] > 0) { missing += 1 }
            }
        }
        return all == 0 ? 1 : Double(missing) / Double(all)
    }

    /// The box around the sphere's outline in the colour picture (the depth picture scaled to
    /// its size), nil when the sphere reaches behind the camera.
    static func box(
        of sphere: (centre: SIMD3<Double>, radius: Double), depth k: CameraIntrinsics, colourWidth: Int, colourHeight: Int
    ) -> PixelBox? {
        let c = sphere.centre
        guard c.z > sphere.radius else { return nil }
        let sx = Double(colourWidth) / Double(k.width), sy = Double(colourHeight) / Double(k.height)
        let u = k.fx * c.x / c.z + k.cx, v = k.fy * c.y / c.z + k.cy
        // The outline's half-width at the centre's depth, widened as the sphere nears the camera.
        let spread = sphere.radius / (c.z * c.z - sphere.radius * sphere.radius).squareRoot()
        let hu = k.fx * spread, hv = k.fy * spread
        return PixelBox(
            minX: ((u - hu) + 0.5) * sx - 0.5, minY: ((v - hv) + 0.5) * sy - 0.5, maxX: ((u + hu) + 0.5) * sx - 0.5,
            maxY: ((v + hv) + 0.5) * sy - 0.5)
    }
}
