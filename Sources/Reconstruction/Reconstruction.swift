import Geometry

/// The outcome: marker map, keyframe poses and the fused head surface, all in the frame of
/// the first keyframe's camera.
public struct Reconstruction: Sendable {
    /// The cap's markers.
    public var map: MarkerMap
    /// Refined keyframes.
    public var keyframes: [Keyframe]
    /// The head surface, metres.
    public var mesh: TriangleMesh
    /// The region that was fused.
    public var region: FusionRegion
    /// Numbers for reports.
    public var statistics: ReconstructionStatistics
    /// The colour camera the reconstruction settled on (`statistics` keeps its numbers).
    public var camera: SettledCamera
    /// When the cap slid on the head (`statistics.capSlide`): its markers where they lay on the
    /// head after the slide, in the mesh's frame; `map` is the cap before it.
    public var markersAfterSlide: MarkerMap?

    /// The keyframes as the reconstruction saw them.
    public var keyframeViews: [ReconstructedView] {
        keyframes.map { ReconstructedView(frameIndex: $0.frameIndex, worldFromCamera: $0.mapFromCamera, camera: camera) }
    }
}
