/// How the simulated TrueDepth sensor turns true geometry into measurements.
public struct SensorModel: Sendable, Equatable, Codable {
    /// Depth noise (one standard deviation) at 0.4 m, metres; it grows with distance squared.
    public var depthNoiseAt40cm: Float
    /// No depth closer than this (the projector pattern blurs), metres.
    public var minimumRange: Float
    /// No depth farther than this, metres.
    public var maximumRange: Float
    /// No depth where the surface is seen more obliquely than this (cosine of the angle).
    public var grazingCosine: Float
    /// Depth steps larger than this mark a depth edge, where pixels lose their depth (metres).
    public var edgeStep: Float
    /// Fraction of pixels that drop out at random.
    public var dropoutRate: Double
    /// Colour noise (one standard deviation) in 8-bit levels.
    public var colourNoise: Float
    /// Blur colour along the image motion during the exposure.
    public var motionBlur: Bool
    /// Measured depth over true depth: 1.01 reads everything 1 % too far (a depth unit that is
    /// off, as after a repair or on a miscalibrated unit).
    public var depthScale: Float = 1
    /// Pixels by which the depth map lies shifted against the colour picture, X and Y (a
    /// depth-to-colour registration that is off); nil for none.
    public var depthShiftPixels: SIMD2<Int>?

    /// Values in line with published TrueDepth measurements at infant-scan distances.
    public init(
        depthNoiseAt40cm: Float = 0.001, minimumRange: Float = 0.2, maximumRange: Float = 1.2,
        grazingCosine: Float = 0.2, edgeStep: Float = 0.015, dropoutRate: Double = 0.003,
        colourNoise: Float = 2.5, motionBlur: Bool = true
    ) {
        self.depthNoiseAt40cm = depthNoiseAt40cm
        self.minimumRange = minimumRange
        self.maximumRange = maximumRange
        self.grazingCosine = grazingCosine
        self.edgeStep = edgeStep
        self.dropoutRate = dropoutRate
        self.colourNoise = colourNoise
        self.motionBlur = motionBlur
    }

    /// A noiseless sensor that keeps every depth: for exactness tests.
    public static let ideal = SensorModel(
        depthNoiseAt40cm: 0, minimumRange: 0, maximumRange: 100, grazingCosine: 0, edgeStep: .infinity,
        dropoutRate: 0, colourNoise: 0, motionBlur: false)
}
