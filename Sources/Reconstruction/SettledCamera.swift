import Geometry
import Recording

/// The colour camera a reconstruction settled on: the camera its frames were recorded with,
/// and what its self-calibration found of it — the focal length's scale, the principal
/// point's shift and the lens's first radial term, each with its standard deviation (nil:
/// not estimated).
///
/// Where pixels live, and which camera reads them:
/// - Inside the reconstruction every picture is a pinhole one: each frame is resampled once,
///   as it is read, through the recorded camera (`RGBDFrame.removingLensDistortion()`;
///   `pinholePixel(ofRawPixel:)` and `rawPixel(ofPinholePixel:)` are that map), and every
///   stage after it — markers, map, bundle adjustment, fusion — reads those pictures
///   through `pinhole`: the recorded pinhole part with the correction applied.
/// - Outside it, frames are read as recorded, the lens's distortion in their pixels ("raw"
///   pixels, where a therapist picks a landmark). A raw pixel is read through `lens`: the
///   settled focal length and principal point with the recorded distortion. `reading(_:)`
///   gives a frame that camera, and `ReconstructedView` casts rays through raw pixels and
///   projects points to them with it.
/// - Without a lens distortion raw and pinhole pixels are the same and the two readings
///   agree to the bit. With both a distortion and a correction they differ by their product
///   (the resampling undistorts with the recorded focal length, `lens` with the settled one):
///   fx·x·k1·r²·(s² − 1) pixels for a focal scale s at normalised point x, r² = x² + y²,
///   a few tenths of a pixel at the picture's corners for a 2 % correction and k1 = −0.05.
/// - The correction applied is the focal scale when it passed the reconstruction's
///   threshold (`focalScaleApplied`) and the principal point shift whenever it was
///   estimated. The estimated k1 is reported, never applied: `calibrated` is the camera a
///   calibration writes.
///
/// `ReconstructionStatistics` keeps these numbers for `reconstruction.json`;
/// `ReconstructionStatistics.camera(recorded:)` makes the camera again from them.
public struct SettledCamera: Sendable, Equatable {
    /// The colour camera the frames were read with, its lens distortion included.
    public var recorded: CameraIntrinsics
    /// The estimated focal length over the recorded one, and its standard deviation.
    public var focalScale: Double?
    public var focalScaleSigma: Double?
    /// The focal scale applied: the estimate, when it differed from 1 by more than the
    /// reconstruction's threshold; nil: the recorded focal length stands.
    public var focalScaleApplied: Double?
    /// Why an estimate past the threshold was not applied (depth and colour disagree); nil
    /// when it was, or when none was past it.
    public var focalCorrectionRefused: String?
    /// The estimated principal point minus the recorded one (pixels), and its standard
    /// deviations; applied whenever estimated.
    public var principalShift: SIMD2<Double>?
    public var principalShiftSigma: SIMD2<Double>?
    /// The lens's estimated first radial term (the recorded one plus what the estimate added),
    /// and its standard deviation.
    public var k1: Double?
    public var k1Sigma: Double?
    /// The stickers' printed size against the depth: the depth unit's measured ratio, and
    /// whether it set the scan's scale; nil when not measured (the depth's own scale stands).
    public var printedScale: PrintedScale?

    /// The recorded camera, nothing estimated.
    public init(recorded: CameraIntrinsics) {
        self.recorded = recorded
    }

    /// What the reconstruction changed of the recorded camera: the focal scale applied, the
    /// principal point shift and the depth's scale by the stickers' printed size.
    public var correction: CameraCorrection {
        CameraCorrection(
            focalScale: focalScaleApplied ?? 1, principalShift: principalShift ?? .zero, depthScale: printedScale?.depthScale ?? 1)
    }

    /// The camera the reconstruction works in, on pinhole pictures: the recorded pinhole part,
    /// corrected.
    public var pinhole: CameraIntrinsics { correction.applied(to: recorded.pinhole) }

    /// The camera of raw pixels: the settled focal length and principal point with the
    /// recorded lens distortion.
    public var lens: CameraIntrinsics { correction.applied(to: recorded) }

    /// The camera as calibrated: `lens` with the estimated k1 in place of the recorded one
    /// (what `headscan calibrate --out` writes).
    public var calibrated: CameraIntrinsics {
        var k = lens
        k.distortion.k1 = k1 ?? recorded.distortion.k1
        return k
    }

    /// The pinhole pixel that shows what the recorded picture shows at `raw`: where the
    /// resampled picture has it.
    public func pinholePixel(ofRawPixel raw: SIMD2<Double>) -> SIMD2<Double> {
        recorded.undistortedPixel(raw)
    }

    /// The raw pixel a pinhole pixel was resampled from.
    public func rawPixel(ofPinholePixel pixel: SIMD2<Double>) -> SIMD2<Double> {
        guard !recorded.distortion.isNone else { return pixel }
        return recorded.distortedPixel(ofPinholePixel: pixel)
    }

    /// `frame` read with the settled camera: its pixels and depths as they are, its colour and
    /// depth cameras corrected (a raw frame gets `lens` when it was recorded with `recorded`;
    /// a resampled one, `pinhole`).
    public func reading(_ frame: RGBDFrame) -> RGBDFrame {
        frame.correcting(correction)
    }
}

extension RGBDFrame {
    /// The frame read with `camera` (scaled to the colour and the depth pictures' sizes)
    /// instead of the cameras it recorded; as recorded when nil.
    public func reading(with camera: CameraIntrinsics?) -> RGBDFrame {
        guard let camera else { return self }
        var frame = self
        frame.colorIntrinsics = camera.scaled(toWidth: color.width, height: color.height)
        frame.depthIntrinsics = camera.scaled(toWidth: depth.width, height: depth.height)
        return frame
    }
}
