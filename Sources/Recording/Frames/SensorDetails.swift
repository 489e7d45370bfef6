/// What a depth camera says about its own lens, recorded with the scan so that processing can
/// undo the lens distortion instead of assuming a perfect pinhole. The TrueDepth camera gives
/// it as Apple's radial lookup table: for a point at radius r from the distortion centre, the
/// table (sampled evenly from 0 to the largest radius in the reference picture, linearly
/// interpolated) gives the factor by which r is magnified; the inverse table undoes it.
public struct LensDistortionTable: Sendable, Codable, Equatable {
    /// The distortion centre in pixels of the reference picture.
    public var centerX: Double
    public var centerY: Double
    /// The picture size the centre and the radii refer to, pixels.
    public var referenceWidth: Int
    public var referenceHeight: Int
    /// Magnification by radius, from the centre to the farthest corner.
    public var lookupTable: [Float]
    /// The inverse: from distorted back to ideal radii.
    public var inverseLookupTable: [Float]

    public init(centerX: Double, centerY: Double, referenceWidth: Int, referenceHeight: Int, lookupTable: [Float], inverseLookupTable: [Float]) {
        self.centerX = centerX
        self.centerY = centerY
        self.referenceWidth = referenceWidth
        self.referenceHeight = referenceHeight
        self.lookupTable = lookupTable
        self.inverseLookupTable = inverseLookupTable
    }
}

/// Whether the depth values are metric (absolute) or only right relative to one another.
public enum DepthAccuracy: String, Sendable, Codable, Equatable {
    case absolute
    case relative
}
