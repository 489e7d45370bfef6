import Geometry
import Imaging

/// One moment of a scan: a colour picture and a depth map taken together.
public struct RGBDFrame: Sendable {
    /// Seconds since the scan started.
    public var timestamp: Double
    /// Colour picture.
    public var color: RGBAImage
    /// Depth in metres along the optical axis; NaN where the sensor has no value.
    public var depth: DepthImage
    /// Camera model of the colour picture.
    public var colorIntrinsics: CameraIntrinsics
    /// Camera model of the depth map (TrueDepth depth is often smaller than colour).
    public var depthIntrinsics: CameraIntrinsics

    /// A frame from its parts.
    public init(
        timestamp: Double, color: RGBAImage, depth: DepthImage,
        colorIntrinsics: CameraIntrinsics, depthIntrinsics: CameraIntrinsics
    ) {
        self.timestamp = timestamp
        self.color = color
        self.depth = depth
        self.colorIntrinsics = colorIntrinsics
        self.depthIntrinsics = depthIntrinsics
    }
}

extension RGBDFrame {
    /// The frame with both cameras' focal lengths multiplied by `scale` (a self-calibrated
    /// camera whose factory focal length was off); pixels and depths are unchanged.
    public func scalingFocalLength(_ scale: Double) -> RGBDFrame {
        guard scale != 1 else { return self }
        var frame = self
        frame.colorIntrinsics = colorIntrinsics.scalingFocalLength(scale)
        frame.depthIntrinsics = depthIntrinsics.scalingFocalLength(scale)
        return frame
    }
}

extension CameraIntrinsics {
    /// The camera with fx and fy multiplied by `scale`.
    public func scalingFocalLength(_ scale: Double) -> CameraIntrinsics {
        CameraIntrinsics(fx: fx * scale, fy: fy * scale, cx: cx, cy: cy, width: width, height: height)
    }
}
