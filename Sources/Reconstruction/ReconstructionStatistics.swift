import Geometry

/// Numbers about a finished reconstruction.
public struct ReconstructionStatistics: Sendable, Codable, Equatable {
    /// Frames in the scan.
    public var framesTotal = 0
    /// Frames examined (after the stride).
    public var framesExamined = 0
    /// Frames placed on the marker map.
    public var framesUsed = 0
    /// Examined frames that could not be placed (too few markers, unreadable, outliers).
    public var framesRejected = 0
    /// Keyframes refined and fused.
    public var keyframes = 0
    /// Markers in the map.
    public var markersMapped = 0
    /// RMS of the map's corners reprojected into the keyframes against the detections, pixels.
    public var reprojectionRMSPixels = 0.0
    /// The same before the bundle adjustment (incremental map and poses).
    public var reprojectionRMSPixelsInitial = 0.0
    /// The same after the robust 3D stage of the bundle adjustment, before the joint stage.
    public var reprojectionRMSPixels3D = 0.0
    /// RMS of the keyframes' 3D corners against the map after refinement, millimetres.
    public var cornerRMSMillimetres = 0.0
    /// Allocated TSDF blocks (8³ voxels each).
    public var voxelBlocks = 0
    /// Memory of the voxel data, bytes.
    public var volumeBytes = 0
    /// Vertices and triangles of the mesh.
    public var vertices = 0
    public var triangles = 0
    /// Seconds per stage ("markers", "bundleAdjustment", "fusion", "meshing"), and of the
    /// TSDF integration within fusion alone ("fusionIntegration", without reading frames).
    public var stageSeconds: [String: Double] = [:]
    /// The estimated focal length over the recorded (factory) one, and its standard deviation;
    /// nil when the focal length was not estimated.
    public var focalScale: Double?
    public var focalScaleSigma: Double?
    /// The focal scale the reconstruction was made with, when the estimate replaced the factory
    /// value (it differed by more than `focalOverrideThreshold`); nil: the factory value.
    public var focalScaleApplied: Double?
    /// Why an estimate past that threshold was not applied (the recording's depth and colour
    /// disagree); nil when it was applied, or none was past it.
    public var focalCorrectionRefused: String?

    /// The estimated principal point minus the recorded one (pixels, x and y) and its standard
    /// deviations; nil when the principal point was held.
    public var principalPointShift: [Double]?
    public var principalPointSigma: [Double]?

    /// The lens's estimated first radial term (the recorded one plus what the estimate added)
    /// and its standard deviation; nil when it was not estimated.
    public var distortionK1: Double?
    public var distortionK1Sigma: Double?

    /// The stickers' mapped size against their printed size (the depth unit's ratio), and
    /// whether it set the scan's scale; nil when not measured.
    public var printedScale: PrintedScale?

    /// What flattening the stickers onto the head did; nil when it was not asked for.
    public var stickers: StickerFlattening.Report?
    /// The cap's slide on the head, when the fusion found one.
    public var capSlide: CapSlide?
    /// A slide the depth showed but not clearly enough to undo; nil when none or when undone.
    public var capSlideDoubt: CapSlideDoubt?

    /// Nothing counted yet.
    public init() {}
}

extension ReconstructionStatistics {
    /// The camera the reconstruction settled on, for frames recorded with `recorded`: the
    /// camera's numbers as these statistics keep them (and `reconstruction.json` stores them).
    public func camera(recorded: CameraIntrinsics) -> SettledCamera {
        var camera = SettledCamera(recorded: recorded)
        camera.focalScale = focalScale
        camera.focalScaleSigma = focalScaleSigma
        camera.focalScaleApplied = focalScaleApplied
        camera.focalCorrectionRefused = focalCorrectionRefused
        camera.principalShift = principalPointShift.flatMap { $0.count == 2 ? SIMD2($0[0], $0[1]) : nil }
        camera.principalShiftSigma = principalPointSigma.flatMap { $0.count == 2 ? SIMD2($0[0], $0[1]) : nil }
        camera.k1 = distortionK1
        camera.k1Sigma = distortionK1Sigma
        camera.printedScale = printedScale
        return camera
    }

    /// Keeps the numbers of the camera the reconstruction settled on.
    public mutating func keep(_ camera: SettledCamera) {
        focalScale = camera.focalScale
        focalScaleSigma = camera.focalScaleSigma
        focalScaleApplied = camera.focalScaleApplied
        focalCorrectionRefused = camera.focalCorrectionRefused
        principalPointShift = camera.principalShift.map { [$0.x, $0.y] }
        principalPointSigma = camera.principalShiftSigma.map { [$0.x, $0.y] }
        distortionK1 = camera.k1
        distortionK1Sigma = camera.k1Sigma
        printedScale = camera.printedScale
    }
}
