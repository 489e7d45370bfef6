import Foundation

/// SplitMix64: a tiny seeded generator, so simulated videos repeat bit for bit everywhere
/// (the system generator cannot be seeded).
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose whole sequence follows from `seed`.
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1) with 53 random bits.
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// Uniform in `range` (upper bound excluded).
    public mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * unit()
    }

    /// Normally distributed with mean 0 and `sigma` (Box–Muller; our own so that the
    /// numbers do not depend on the standard library's algorithms).
    public mutating func gaussian(sigma: Double) -> Double {
        let u1 = max(unit(), 1e-300), u2 = unit()
        return sigma * (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
    }

    /// A 2D offset with independent normal components.
    public mutating func gaussian2(sigma: Double) -> SIMD2<Double> {
        SIMD2(gaussian(sigma: sigma), gaussian(sigma: sigma))
    }
}
