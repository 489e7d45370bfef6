/// Sine and arctangent good to 0.0011 and 0.000012 radians, for textures drawn at every pixel.
///
/// libm's exact functions were a tenth of the simulator's time; a texture needs neither their
/// accuracy nor their handling of huge arguments.
public enum FastTrig {
    /// sin(x) within 0.0011 for the arguments a texture uses (|x| below 10^18).
    @inlinable @inline(__always)
    public static func sin(_ x: Double) -> Double {
        // Reduce to [−π, π), then the parabola through sin's zeros and peaks, refined once.
        let turns = x * (0.5 / Double.pi)
        let t = (turns - Double(floor(turns + 0.5))) * (2 * Double.pi)
        let y = 4 / Double.pi * t - 4 / (Double.pi * Double.pi) * t * abs(t)
        return 0.225 * (y * abs(y) - y) + y
    }

    /// atan2(y, x) within 0.000012 radians (0 at the origin).
    @inlinable @inline(__always)
    public static func atan2(_ y: Double, _ x: Double) -> Double {
        let ax = abs(x), ay = abs(y)
        let largest = max(ax, ay)
        guard largest > 0 else { return 0 }
        let a = min(ax, ay) / largest
        let s = a * a
        // Abramowitz & Stegun 4.4.48 on [0, 1]; the octant symmetries give the rest.
        var r = a * (0.999_866 + s * (-0.330_299_5 + s * (0.180_141 + s * (-0.085_133 + s * 0.020_835_1))))
        if ay > ax { r = Double.pi / 2 - r }
        if x < 0 { r = Double.pi - r }
        return y < 0 ? -r : r
    }

    /// The largest integer not above `x`, without a libm call, for |x| below 2^62.
    @inlinable @inline(__always)
    public static func floor(_ x: Double) -> Int {
        let i = Int(x)
        return Double(i) > x ? i - 1 : i
    }
}
