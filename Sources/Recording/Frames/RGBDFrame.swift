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
