/// A pinhole camera model: focal lengths and principal point in pixels, image size.
///
/// Pixel centres sit at integer coordinates (OpenCV's convention); the camera looks along +z
/// with x right and y down.
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

    /// A model from its parameters.
    public init(fx: Double, fy: Double, cx: Double, cy: Double, width: Int, height: Int) {
        self.fx = fx
        self.fy = fy
        self.cx = cx
        self.cy = cy
        self.width = width
        self.height = height
    }

    /// The pixel where a camera-frame point appears; nil behind the camera.
    public func project(_ point: SIMD3<Double>) -> SIMD2<Double>? {
        guard point.z > 0 else { return nil }
        return SIMD2(fx * point.x / point.z + cx, fy * point.y / point.z + cy)
    }

    /// The camera-frame point at `depth` metres along the ray through `pixel`.
    public func unproject(_ pixel: SIMD2<Double>, depth: Double) -> SIMD3<Double> {
        SIMD3((pixel.x - cx) / fx * depth, (pixel.y - cy) / fy * depth, depth)
    }

    /// The same camera seen at another resolution (depth maps are often smaller than colour).
    public func scaled(toWidth newWidth: Int, height newHeight: Int) -> CameraIntrinsics {
        let sx = Double(newWidth) / Double(width)
        let sy = Double(newHeight) / Double(height)
        // Pixel centres at integers: the image edge is at -0.5, so scale about it.
        return CameraIntrinsics(
            fx: fx * sx, fy: fy * sy, cx: (cx + 0.5) * sx - 0.5, cy: (cy + 0.5) * sy - 0.5,
            width: newWidth, height: newHeight)
    }
}
