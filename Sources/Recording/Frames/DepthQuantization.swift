/// Depth values as the TrueDepth camera stores them.
public enum DepthQuantization {
    /// `metres` rounded to the nearest Float16 (ties to even) and back: TrueDepth's depth
    /// resolution, about 0.2 mm at 0.4 m.
    public static func float16(_ metres: Float) -> Float { HalfFloat.quantized(metres) }
}
