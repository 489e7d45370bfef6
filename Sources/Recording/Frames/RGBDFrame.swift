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

/// What a self-calibration changed of the recorded camera: the focal length's scale, the
/// principal point's shift (in the colour picture's pixels), and the factor every depth is
/// multiplied by (the stickers' printed size against the phone's depth unit).
public struct CameraCorrection: Sendable, Equatable, Codable {
    public var focalScale: Double
    public var principalShift: SIMD2<Double>
    public var depthScale: Double

    public init(focalScale: Double = 1, principalShift: SIMD2<Double> = .zero, depthScale: Double = 1) {
        self.focalScale = focalScale
        self.principalShift = principalShift
        self.depthScale = depthScale
    }

    private enum CodingKeys: String, CodingKey { case focalScale, principalShift, depthScale }

    /// Corrections written before the depth scale existed read with none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        focalScale = try container.decode(Double.self, forKey: .focalScale)
        principalShift = try container.decode(SIMD2<Double>.self, forKey: .principalShift)
        depthScale = try container.decodeIfPresent(Double.self, forKey: .depthScale) ?? 1
    }

    /// No change.
    public static let none = CameraCorrection()

    /// `k` corrected; `colorWidth` is the width of the picture the shift is measured in (a
    /// depth camera of another size gets the shift in its own pixels).
    public func applied(to k: CameraIntrinsics, colorWidth: Int? = nil) -> CameraIntrinsics {
        let ratio = colorWidth.map { Double(k.width) / Double(max(1, $0)) } ?? 1
        var corrected = k
        corrected.fx *= focalScale
        corrected.fy *= focalScale
        corrected.cx += principalShift.x * ratio
        corrected.cy += principalShift.y * ratio
        return corrected
    }
}

extension RGBDFrame {
    /// The frame with both cameras corrected and its depths scaled; pixels are unchanged.
    public func correcting(_ correction: CameraCorrection) -> RGBDFrame {
        guard correction != .none else { return self }
        var frame = self
        frame.colorIntrinsics = correction.applied(to: colorIntrinsics)
        frame.depthIntrinsics = correction.applied(to: depthIntrinsics, colorWidth: colorIntrinsics.width)
        if correction.depthScale != 1 {
            let scale = Float(correction.depthScale)
            frame.depth = depth.map { $0 * scale }
        }
        return frame
    }
}

extension CameraIntrinsics {
    /// The camera with fx and fy multiplied by `scale`.
    public func scalingFocalLength(_ scale: Double) -> CameraIntrinsics {
        CameraCorrection(focalScale: scale).applied(to: self)
    }
}
