import Geometry

/// Settings of a reconstruction.
public struct ReconstructionOptions: Sendable {
    /// Use every n-th frame for markers (1 = all).
    public var frameStride = 1
    /// The stride for a walk around a head at 30 frames a second: at every third frame the
    /// map, the surface and the CVAI are as good as at every frame (the reconstruction
    /// benchmark), since the frames between add no keyframe.
    public static let headScanStride = 3
    /// A registered frame becomes a keyframe after this much camera travel (metres) ...
    public var keyframeTranslation = 0.02
    /// ... or this much rotation (radians) since the last keyframe, or when it adds markers.
    public var keyframeRotation = 8.0 * Double.pi / 180
    /// Whether the fusion looks for a cap that slid on the head during the scan and, where it
    /// finds one, places the keyframes after it by the head's surface (see `CapSlideSearch`).
    public var findsCapSlide = true
    /// TSDF voxel edge, metres.
    public var voxelSize = 0.001
    /// TSDF truncation distance, metres.
    public var truncation = 0.004
    /// Head region radius as a multiple of the sphere fitted to the cap.
    public var regionScale = 1.4
    /// How far the head region's centre lies below the cap's sphere's, as a multiple of its
    /// radius: the cap covers the vault, and the face and ears lie below it.
    public var regionDrop = 0.35
    /// Largest sphere the cap may fit and still be taken for a head, metres (an adult's head
    /// is under 0.1 m); markers on anything flatter bound the fusion by their own extent.
    public var maximumHeadRadius = 0.12
    /// Iterations of the robust 3D pre-alignment of the bundle adjustment.
    public var bundleIterations = 15
    /// Finish the bundle adjustment with joint Levenberg–Marquardt iterations on reprojection
    /// and depth residuals (0 = stop after the 3D pre-alignment).
    public var jointBundleIterations = 8
    /// Whether the joint bundle adjustment estimates the focal length too (the factory value
    /// is its prior); the fusion and every later use of the frames then use the estimate.
    public var estimatesFocalLength = true
    /// How far the focal length may be from the factory value a priori (relative, one sigma).
    public var focalPriorSigma = 0.05
    /// The estimate replaces the factory focal length only when they differ by more than this
    /// (relative): below it the estimate's own small biases (corner detection, depth) would
    /// cost more than a good factory calibration.
    public var focalOverrideThreshold = 0.01
    /// When an estimate past that threshold is still not applied: depth and colour disagree.
    public var focalCorrectionCheck = FocalCorrectionCheck()
    /// Whether the stickers' printed size sets the scan's scale (the map's markers against the
    /// layout's printed sides, see `PrintedScale`) instead of the phone's depth unit, when
    /// `printedScaleRule` lets it; false: the depth's scale stands and the ratio is still
    /// measured and reported.
    public var scalesByPrintedSize = true
    public var printedScaleRule = PrintedScaleRule()
    /// Whether the principal point is estimated with the focal length and applied whatever its
    /// size. Off for heads: a walk around a head hardly tells a shifted centre from a turned
    /// camera. On for a board recorded from many tilts (`headscan calibrate`).
    public var estimatesPrincipalPoint = false
    /// How far the principal point may be from the factory value a priori (pixels, one sigma).
    public var principalPointPriorSigma = 20.0
    /// Whether the lens's first radial distortion term is estimated (on top of the recorded
    /// one): a board that fills the picture from many views supports it, a head hardly does.
    /// It is reported, not applied to the reconstruction.
    public var estimatesDistortion = false
    /// How far k1 may be from the recorded value a priori (one sigma).
    public var distortionPriorSigma = 0.2
    /// The colour camera to read every frame with instead of the one the frame recorded (a
    /// calibration's, as `headscan calibrate --out` writes it); the depth camera is the same
    /// scaled to the depth map. Nil: each frame's own. The settled camera starts from it.
    public var camera: CameraIntrinsics?
    /// The depth sensor's noise: how far each marker's depth is trusted against its picture.
    public var depthNoise = DepthNoiseModel.trueDepth
    /// Fuse colour into the volume and colour the mesh's vertices.
    public var fuseColor = false
    /// Fuse the depth into a surface; false stops after the marker map and the poses, as
    /// calibrating with a flat board needs (a plane has no head to fuse).
    public var fuseSurface = true
    /// Threads for marker detection and fusion; the results do not depend on it.
    public var threads = availableCores()
    /// Whether the surface under each mapped sticker is interpolated from the head around it
    /// (flat labels stand proud of a curved cap); nil leaves the fused surface as it is.
    public var stickerFlattening: StickerFlattening? = StickerFlattening()

    /// The defaults.
    public init() {}
}
