/// One marker found in an image.
public struct DetectedMarker: Sendable, Hashable, Codable {
    /// The marker's ID in the dictionary it was searched with.
    public var id: Int
    /// The four outer corners in pixels, in OpenCV's order: the marker's top-left, top-right,
    /// bottom-right and bottom-left as drawn (clockwise on screen), pixel centres at integers.
    public var corners: [SIMD2<Double>]
    /// Bits that differed from the dictionary's code and were corrected.
    public var correctedBits: Int

    /// A detection; `corners` must hold four points.
    public init(id: Int, corners: [SIMD2<Double>], correctedBits: Int = 0) {
        precondition(corners.count == 4, "a marker has four corners")
        self.id = id
        self.corners = corners
        self.correctedBits = correctedBits
    }

    /// The mean of the four corners.
    public var centre: SIMD2<Double> { corners.reduce(.zero, +) / 4 }

    /// Sum of the four side lengths, in pixels.
    public var perimeter: Double {
        (0..<4).reduce(0.0) { sum, i in
            let d = corners[(i + 1) % 4] - corners[i]
            return sum + (d * d).sum().squareRoot()
        }
    }
}
