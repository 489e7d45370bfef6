/// A pinhole camera model: focal lengths and principal point in pixels, image size, and the
/// lens's radial distortion.
///
/// Pixel centres sit at integer coordinates (OpenCV's convention); the camera looks along +z
/// with x right and y down. `project` and `unproject` include the distortion; the code that
/// works on pictures with the distortion removed (`RGBDFrame.removingLensDistortion()`) uses
/// the pinhole part alone.
public struct CameraIntrinsics: Sendable, Hashable, Codable {
    /// Focal length along x, in pixels.
    public var fx: Double
    /// Focal length along y, in pixels.
    public var fy: Double
    /// Principal point x, in pixels.
    public var cx: Double
    /// Principal point y, in pixels.
    public var cy: Double
    /// Image width the model refers to, in pixels.
    public var width: Int
    /// Image height the model refers to, in pixels.
    public var height: Int
    /// The lens's radial distortion (none for a pinhole or a picture already corrected).
    public var distortion: RadialDistortion

    /// A model from its parameters.
    public init(fx: Double, fy: Double, cx: Double, cy: Double, width: Int, height: Int, distortion: RadialDistortion = .none) {
        self.fx = fx
        self.fy = fy
        self.cx = cx
        self.cy = cy
        self.width = width
        self.height = height
        self.distortion = distortion
    }

    /// The pixel where a camera-frame point appears, through the lens; nil behind the camera.
    public func project(_ point: SIMD3<Double>) -> SIMD2<Double>? {
        guard point.z > 0 else { return nil }
        let d = distortion.distort(SIMD2(point.x / point.z, point.y / point.z))
        return SIMD2(fx * d.x + cx, fy * d.y + cy)
    }

    /// The camera-frame point at `depth` metres along the ray through `pixel` (the lens's
    /// distortion undone).
    public func unproject(_ pixel: SIMD2<Double>, depth: Double) -> SIMD3<Double> {
        let n = distortion.undistort(SIMD2((pixel.x - cx) / fx, (pixel.y - cy) / fy))
        return SIMD3(n.x * depth, n.y * depth, depth)
    }

    /// The same camera without its distortion: where a pinhole would have put `pixel`.
    public func undistortedPixel(_ pixel: SIMD2<Double>) -> SIMD2<Double> {
        guard !distortion.isNone else { return pixel }
        let n = distortion.undistort(SIMD2((pixel.x - cx) / fx, (pixel.y - cy) / fy))
        return SIMD2(fx * n.x + cx, fy * n.y + cy)
    }

    /// Where the lens puts what a pinhole of the same focal length and centre shows at `pixel`.
    public func distortedPixel(ofPinholePixel pixel: SIMD2<Double>) -> SIMD2<Double> {
        let d = distortion.distort(SIMD2((pixel.x - cx) / fx, (pixel.y - cy) / fy))
        return SIMD2(fx * d.x + cx, fy * d.y + cy)
    }

    /// The pinhole part alone.
    public var pinhole: CameraIntrinsics {
        var k = self
        k.distortion = .none
        return k
    }

    private enum CodingKeys: String, CodingKey { case fx, fy, cx, cy, width, height, k1, k2 }

    /// Reads the pinhole fields and, when present, `k1` and `k2` (older files have neither).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            fx: try c.decode(Double.self, forKey: .fx), fy: try c.decode(Double.self, forKey: .fy),
            cx: try c.decode(Double.self, forKey: .cx), cy: try c.decode(Double.self, forKey: .cy),
            width: try c.decode(Int.self, forKey: .width), height: try c.decode(Int.self, forKey: .height),
            distortion: RadialDistortion(
                k1: try c.decodeIfPresent(Double.self, forKey: .k1) ?? 0, k2: try c.decodeIfPresent(Double.self, forKey: .k2) ?? 0))
        // A file from another device may say anything; a lens that folds the picture over is
        // refused here rather than warping every frame into nonsense.
        guard abs(distortion.k1) < 1, abs(distortion.k2) < 1 else {
            throw DecodingError.dataCorruptedError(
                forKey: .k1, in: c, debugDescription: "k1 and k2 are radial distortion terms between -1 and 1 (a phone's are a few hundredths)")
        }
    }

    /// Writes `k1` and `k2` only for a lens with distortion, so pinhole files stay as they were.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(fx, forKey: .fx)
        try c.encode(fy, forKey: .fy)
        try c.encode(cx, forKey: .cx)
        try c.encode(cy, forKey: .cy)
        try c.encode(width, forKey: .width)
        try c.encode(height, forKey: .height)
        if !distortion.isNone {
            try c.encode(distortion.k1, forKey: .k1)
            try c.encode(distortion.k2, forKey: .k2)
        }
    }

    /// The same camera seen at another resolution (depth maps are often smaller than colour).
    public func scaled(toWidth newWidth: Int, height newHeight: Int) -> CameraIntrinsics {
        let sx = Double(newWidth) / Double(width)
        let sy = Double(newHeight) / Double(height)
        // Pixel centres at integers: the image edge is at -0.5, so scale about it.
        // The distortion acts on normalised coordinates, which scaling does not change.
        return CameraIntrinsics(
            fx: fx * sx, fy: fy * sy, cx: (cx + 0.5) * sx - 0.5, cy: (cy + 0.5) * sy - 0.5,
            width: newWidth, height: newHeight, distortion: distortion)
    }
}

/// Radial lens distortion in OpenCV's (Brown's) form on normalised coordinates:
/// `distorted = undistorted · (1 + k1 r² + k2 r⁴)`.
public struct RadialDistortion: Sendable, Hashable {
    public var k1: Double
    public var k2: Double

    public init(k1: Double = 0, k2: Double = 0) {
        self.k1 = k1
        self.k2 = k2
    }

    /// A perfect pinhole.
    public static let none = RadialDistortion()

    public var isNone: Bool { k1 == 0 && k2 == 0 }

    /// Where the lens puts the ray through normalised point `p`.
    @inline(__always)
    public func distort(_ p: SIMD2<Double>) -> SIMD2<Double> {
        guard !isNone else { return p }
        let r2 = p.x * p.x + p.y * p.y
        return p * (1 + r2 * (k1 + k2 * r2))
    }

    /// The normalised point the lens moved to `q`: fixed-point iteration, exact to 1e-12 for
    /// the distortion of phone cameras (a few per cent at the picture's corners); a lens that
    /// folds the picture over (no unique inverse) gives the last iterate.
    public func undistort(_ q: SIMD2<Double>) -> SIMD2<Double> {
        guard !isNone else { return q }
        var p = q
        for _ in 0..<30 {
            let r2 = p.x * p.x + p.y * p.y
            let factor = 1 + r2 * (k1 + k2 * r2)
            guard factor > 0.1, factor.isFinite else { return p }
            let next = q / factor
            let change = next - p
            p = next
            if change.x * change.x + change.y * change.y < 1e-26 { break }
        }
        return p
    }
}
