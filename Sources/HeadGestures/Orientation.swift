/// How the phone is held, as the motion sensors report it.
public enum DeviceOrientation: String, Sendable, Codable, CaseIterable {
    /// Upright, home button (or bottom edge) down: the usual way.
    case portrait
    /// Upside down, home button on top.
    case portraitUpsideDown
    /// On its side, home button on the right.
    case landscapeLeft
    /// On its side, home button on the left.
    case landscapeRight

    /// The orientation of the front camera's unmirrored buffer in this device orientation
    /// (the EXIF rows of the seed: portrait has the 0th row on the right, 0th column on top).
    public var frontCameraImageOrientation: ImageOrientation {
        switch self {
        case .portrait: .right
        case .portraitUpsideDown: .left
        case .landscapeLeft: .down
        case .landscapeRight: .up
        }
    }
}

/// How a stored image must be turned to be seen upright, named as `CGImagePropertyOrientation`
/// names its unmirrored cases (EXIF values 1, 3, 6 and 8).
public enum ImageOrientation: String, Sendable, Codable, CaseIterable {
    /// Stored upright (EXIF 1: 0th row at the top, 0th column on the left).
    case up
    /// Stored upside down (EXIF 3: 0th row at the bottom, 0th column on the right).
    case down
    /// Stored turned a quarter counter-clockwise (EXIF 6: 0th row on the right, 0th column on top).
    case right
    /// Stored turned a quarter clockwise (EXIF 8: 0th row on the left, 0th column at the bottom).
    case left

    /// The EXIF orientation value.
    public var exifValue: Int {
        switch self {
        case .up: 1
        case .down: 3
        case .right: 6
        case .left: 8
        }
    }

    /// The size of the upright image.
    public func uprightSize(width: Int, height: Int) -> (width: Int, height: Int) {
        switch self {
        case .up, .down: (width, height)
        case .right, .left: (height, width)
        }
    }

    /// Where a pixel of the stored `width` × `height` image lands in the upright image
    /// (pixel centres at integers, so the last column is `width - 1`).
    @inlinable
    public func upright(_ p: SIMD2<Double>, width: Int, height: Int) -> SIMD2<Double> {
        let maxX = Double(width - 1), maxY = Double(height - 1)
        switch self {
        case .up: return p
        case .down: return SIMD2(maxX - p.x, maxY - p.y)
        case .right: return SIMD2(maxY - p.y, p.x)
        case .left: return SIMD2(p.y, maxX - p.x)
        }
    }

    /// The inverse of `upright`: where an upright pixel is stored.
    public func stored(_ p: SIMD2<Double>, width: Int, height: Int) -> SIMD2<Double> {
        let maxX = Double(width - 1), maxY = Double(height - 1)
        switch self {
        case .up: return p
        case .down: return SIMD2(maxX - p.x, maxY - p.y)
        case .right: return SIMD2(p.y, maxY - p.x)
        case .left: return SIMD2(maxX - p.y, p.x)
        }
    }
}
