import Foundation

/// SplitMix64: a tiny seeded generator, mainly to expand one seed into the state of another.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    @usableFromInline var state: UInt64

    /// A generator whose whole sequence follows from `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    @inlinable
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Xoshiro256**: fast seeded generator, so tests and synthetic data repeat bit for bit on every platform.
///
/// `SystemRandomNumberGenerator` cannot be seeded, and stdlib algorithms such as `shuffled(using:)`
/// may change between Swift versions, so reproducible code should draw numbers through the
/// helpers here.
public struct Xoshiro256: RandomNumberGenerator, Sendable {
    @usableFromInline var s0: UInt64, s1: UInt64, s2: UInt64, s3: UInt64

    /// A generator whose whole sequence follows from `seed`.
    public init(seed: UInt64) {
        var mixer = SplitMix64(seed: seed)
        s0 = mixer.next(); s1 = mixer.next(); s2 = mixer.next(); s3 = mixer.next()
    }

    /// A generator for one item of a family (a frame, a test case) that does not depend on the others.
    public init(seed: UInt64, stream: UInt64) {
        var mixer = SplitMix64(seed: seed ^ (stream &* 0xD1B5_4A32_D192_ED03))
        self.init(seed: mixer.next())
    }

    /// The next 64 random bits.
    @inlinable
    public mutating func next() -> UInt64 {
        let result = Self.rotateLeft(s1 &* 5, 7) &* 9
        let t = s1 << 17
        s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3
        s2 ^= t
        s3 = Self.rotateLeft(s3, 45)
        return result
    }

    @inlinable @inline(__always)
    static func rotateLeft(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }

    /// Uniform in [0, 1) with 24 random bits.
    @inlinable
    public mutating func unitFloat() -> Float { Float(next() >> 40) * 0x1p-24 }

    /// Uniform in [0, 1) with 53 random bits.
    @inlinable
    public mutating func unitDouble() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// Uniform integer in `0..<bound` (bound > 0), without modulo bias worth measuring for small bounds.
    @inlinable
    public mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "bound must be positive")
        return Int(next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// Roughly standard normal: the scaled sum of four uniforms, one draw, cheap enough per pixel.
    @inlinable
    public mutating func gaussian() -> Float {
        let r = next()
        let sum = Int(r & 0xFFFF) + Int((r >> 16) & 0xFFFF) + Int((r >> 32) & 0xFFFF) + Int(r >> 48)
        // Four uniforms on [0, 65536) have mean 131070 and variance 4 * 65536² / 12.
        return Float(sum - 131_070) * (1.7320508 / 65536)
    }
}

// Draws for simulators that want Double precision; one implementation, so every simulator
// repeats bit for bit from its seed.
extension SplitMix64 {
    /// Uniform in [0, 1) with 53 random bits.
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// Uniform in `range`.
    public mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + unit() * (range.upperBound - range.lowerBound)
    }

    /// Uniform integer in `range`.
    public mutating func integer(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    /// True with probability `p`.
    public mutating func chance(_ p: Double) -> Bool { unit() < p }

    /// Normal with mean 0 and `sigma` (Box–Muller, our own so the numbers do not depend on the
    /// standard library's algorithms).
    public mutating func gaussian(sigma: Double = 1) -> Double {
        let u = max(unit(), 0x1p-60), v = unit()
        return sigma * (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
    }

    /// A 2D offset with independent normal components.
    public mutating func gaussian2(sigma: Double) -> SIMD2<Double> {
        SIMD2(gaussian(sigma: sigma), gaussian(sigma: sigma))
    }

    /// The elements of `items` in a random order (Fisher–Yates, reproducible).
    public mutating func shuffled<T>(_ items: [T]) -> [T] {
        var result = items
        guard result.count > 1 else { return result }
        for i in stride(from: result.count - 1, to: 0, by: -1) {
            result.swapAt(i, integer(0...i))
        }
        return result
    }
}
