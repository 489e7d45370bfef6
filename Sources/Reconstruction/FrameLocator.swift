import Geometry
import Markers
import Recording

/// Where the camera was for one frame of a reconstructed scan.
public struct FramePose: Sendable, Equatable {
    /// Camera pose in the marker map's frame, the frame of the mesh.
    public var mapFromCamera: RigidTransform
    /// Whether the pose is a keyframe's, refined by the bundle adjustment.
    public var isKeyframe: Bool
    /// Markers the pose rests on.
    public var markers: Int
}

/// Places any frame of a scan on its finished marker map, so a landmark picked on a frame
/// that was not a keyframe can still be lifted: the refined pose of a keyframe, or else a
/// registration of the frame's own markers against the map.
public struct FrameLocator: Sendable {
    /// The cap's markers.
    public let map: MarkerMap
    /// Refined keyframe poses by frame index.
    public let keyframes: [Int: RigidTransform]
    private let detector: MarkerDetector
    private let lifter: MarkerLifter
    private let validIDs: Set<Int>

    /// When the cap slid on the head: the frames from which it lay elsewhere (from `startFrame`
    /// it moved, from `endFrame` it lay still again), and its markers where they then lay.
    public var slide: (startFrame: Int, endFrame: Int, map: MarkerMap)?

    /// A scan placed without markers: a frame that was not placed takes the pose between the
    /// placed frames either side when they lie at most this many frames apart (a phone moves
    /// smoothly over a few frames); nil: frames are placed by their markers.
    public var interpolationGap: Int?

    /// A locator on `map` with the refined `keyframes`, for scans made with `layout`.
    public init(map: MarkerMap, keyframes: [Int: RigidTransform], layout: CapLayout) throws {
        self.map = map
        self.keyframes = keyframes
        detector = MarkerDetector(dictionary: try layout.dictionary())
        lifter = MarkerLifter(layout: layout)
        validIDs = Set(layout.ids)
    }

    /// A locator for a finished reconstruction.
    public init(_ reconstruction: Reconstruction, layout: CapLayout) throws {
        try self.init(
            map: reconstruction.map,
            keyframes: Dictionary(reconstruction.keyframes.map { ($0.frameIndex, $0.mapFromCamera) }, uniquingKeysWith: { a, _ in a }),
            layout: layout)
        if let slide = reconstruction.statistics.capSlide, let after = reconstruction.markersAfterSlide {
            self.slide = (slide.startFrame, slide.endFrame, after)
        }
    }

    /// The camera pose of frame `index`.
    public func locate(_ frame: RGBDFrame, index: Int) throws(ReconstructionError) -> FramePose {
        if let pose = keyframes[index] { return FramePose(mapFromCamera: pose, isKeyframe: true, markers: map.corners.count) }
        if let gap = interpolationGap { return try between(index, gap: gap) }
        var capMap = map
        if let slide, index >= slide.startFrame {
            // Where the cap was moving, its markers say nothing of where the head was.
            guard index >= slide.endFrame else { throw .frameWhileCapSlid(index: index) }
            capMap = slide.map
        }
        let detections = detector.detect(in: frame.color).filter { validIDs.contains($0.id) }
        var scratch: [SIMD3<Double>] = []
        let observations = lifter.lift(
            detections, depth: frame.depth, colorIntrinsics: frame.colorIntrinsics, depthIntrinsics: frame.depthIntrinsics, scratch: &scratch)
        guard let result = FrameRegistration().register(observations, map: capMap) else {
            throw .cannotLocateFrame(index: index, markers: observations.filter { capMap.corners[$0.id] != nil }.count)
        }
        return FramePose(mapFromCamera: result.mapFromCamera, isKeyframe: false, markers: result.inliers.count)
    }

    /// The pose of frame `index` between the placed frames either side, at most `gap` apart.
    private func between(_ index: Int, gap: Int) throws(ReconstructionError) -> FramePose {
        let before = keyframes.keys.filter { $0 < index }.max()
        let after = keyframes.keys.filter { $0 > index }.min()
        guard let before, let after, after - before <= gap, let a = keyframes[before], let b = keyframes[after] else {
            let nearest = [before, after].compactMap { $0 }.min { abs($0 - index) < abs($1 - index) }
            throw .frameNotPlaced(index: index, nearest: nearest)
        }
        let pose = a.interpolated(to: b, Double(index - before) / Double(after - before))
        return FramePose(mapFromCamera: pose, isKeyframe: false, markers: 0)
    }
}
