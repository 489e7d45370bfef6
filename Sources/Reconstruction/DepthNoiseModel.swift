/// How uncertain a depth camera's measurements are, and from that how well a marker's corners
/// are known along the view once a plane is fitted to the depth inside the marker.
///
/// Structured-light and active-stereo sensors (TrueDepth, RealSense, Kinect v1) measure depth
/// by triangulation, so a pixel's noise grows with the square of the distance; it grows too
/// where the surface is seen at a grazing angle. Neighbouring pixels share the matching window,
/// so their errors are not independent: averaging N pixels helps only as much as
/// N / `correlatedPixels` independent ones would.
public struct DepthNoiseModel: Sendable, Equatable, Codable {
    /// One pixel's depth noise (standard deviation) at 0.4 m, seen head-on, metres.
    public var pixelSigmaAt40cm: Double
    /// Pixels that share one error (the sensor's matching window, in pixels of the depth map).
    public var correlatedPixels: Double
    /// What no averaging removes (quantisation, the sensor's own bias), metres.
    public var floor: Double
    /// Views more grazing than this (cosine of the angle to the surface normal) count as this.
    public var grazingCosineLimit: Double

    /// The model with its constants.
    public init(pixelSigmaAt40cm: Double, correlatedPixels: Double, floor: Double, grazingCosineLimit: Double = 0.25) {
        self.pixelSigmaAt40cm = pixelSigmaAt40cm
        self.correlatedPixels = correlatedPixels
        self.floor = floor
        self.grazingCosineLimit = grazingCosineLimit
    }

    /// An iPhone's front TrueDepth camera at 640x480: about 1 mm per pixel at 40 cm, errors
    /// shared over a 3x3 window, 0.1 mm that averaging leaves (half-float depth at 40 cm is
    /// quantised in steps of 0.24 mm).
    public static let trueDepth = DepthNoiseModel(pixelSigmaAt40cm: 0.001, correlatedPixels: 9, floor: 0.0001)

    /// One pixel's noise at `depth` metres, seen at `cosine` to the surface normal.
    public func pixelSigma(depth: Double, cosine: Double = 1) -> Double {
        let distance = depth / 0.4
        return pixelSigmaAt40cm * distance * distance / max(grazingCosineLimit, min(1, abs(cosine)))
    }

    /// Standard deviation of a point's depth on a plane fitted to `pixels` depth pixels, at
    /// `leverage` = r² / Σ d²: its squared distance from the pixels' centroid over the pixels'
    /// summed squared distances (in the plane). A corner lies outside the fitted area, so its
    /// depth is extrapolated and less sure than the centre's.
    public func planePointSigma(depth: Double, cosine: Double, pixels: Int, leverage: Double) -> Double {
        guard pixels > 0 else { return .infinity }
        let sigma = pixelSigma(depth: depth, cosine: cosine)
        // A least-squares plane's variance at a point: σ²(1/N + r_u²/Σu² + r_v²/Σv²); with the
        // pixels spread about evenly, Σu² ≈ Σv² ≈ Σd²/2.
        let variance = sigma * sigma * correlatedPixels * (1 / Double(pixels) + 2 * leverage)
        return (floor * floor + variance).squareRoot()
    }
}
