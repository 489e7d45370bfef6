/// IEEE 754 binary16 conversions on bit patterns.
///
/// Done by hand rather than with `Float16` because that type is unavailable on macOS x86_64,
/// and the codec must produce the same bytes everywhere.
enum HalfFloat {
    /// The binary16 pattern with exactly the value of Float32 pattern `f`, or nil when there is none.
    ///
    /// NaN patterns give nil: the codec stores NaN patterns separately.
    @inline(__always)
    static func exactHalf(fromFloatBits f: UInt32) -> UInt16? {
        let sign = UInt16(truncatingIfNeeded: (f >> 16) & 0x8000)
        let biased = Int((f >> 23) & 0xFF)
        let mantissa = f & 0x7F_FFFF
        if biased == 0 { return mantissa == 0 ? sign : nil }
        if biased == 255 { return mantissa == 0 ? sign | 0x7C00 : nil }
        let exponent = biased - 127
        if exponent >= -14 && exponent <= 15 {
            guard mantissa & 0x1FFF == 0 else { return nil }
            return sign | UInt16((exponent + 15) << 10) | UInt16(mantissa >> 13)
        }
        if exponent >= -24 && exponent < -14 {
            // Half subnormals are multiples of 2^-24.
            let shift = UInt32(-exponent - 1)
            let full = mantissa | 0x80_0000
            guard full & ((1 << shift) - 1) == 0 else { return nil }
            return sign | UInt16(full >> shift)
        }
        return nil
    }

    /// The Float32 pattern with exactly the value of binary16 pattern `h` (NaN payloads kept).
    ///
    /// Branch-free, so that a loop of conversions vectorises: the fields move into place and the
    /// exponent is rebiased, once more for infinities and NaNs; subnormals are normalised by the
    /// float unit, subtracting 2^-14 from 2^-14 × (1 + mantissa/1024), which is exact.
    @inline(__always)
    static func floatBits(fromHalf h: UInt16) -> UInt32 {
        let magnitude = UInt32(h & 0x7FFF)
        let shifted = magnitude &<< 13
        var bits = shifted &+ (112 << 23)
        bits = magnitude >= 0x7C00 ? bits &+ (112 << 23) : bits
        let subnormal = (Float(bitPattern: shifted &+ (113 << 23)) - 0x1p-14).bitPattern
        bits = magnitude < 0x0400 ? subnormal : bits
        return bits | UInt32(h & 0x8000) &<< 16
    }

    /// The binary16 pattern nearest to `x` (ties to even), as a TrueDepth camera would store it.
    static func roundedHalf(_ x: Float) -> UInt16 {
        if x.isNaN { return 0x7E00 }
        let f = x.bitPattern
        let sign = UInt16(truncatingIfNeeded: (f >> 16) & 0x8000)
        let exponent = Int((f >> 23) & 0xFF) - 127
        if exponent > 15 { return sign | 0x7C00 }
        if exponent >= -14 {
            var h = UInt32((exponent + 15) << 10) | ((f & 0x7F_FFFF) >> 13)
            let rest = f & 0x1FFF
            // A carry out of the mantissa correctly bumps the exponent, up to infinity.
            if rest > 0x1000 || (rest == 0x1000 && h & 1 == 1) { h += 1 }
            return sign | UInt16(h)
        }
        // Scaling by a power of two is exact, so this rounds once, to even.
        return sign | UInt16((abs(x) * 0x1p24).rounded(.toNearestOrEven))
    }

    /// `x` rounded through binary16 and back.
    static func quantized(_ x: Float) -> Float {
        Float(bitPattern: floatBits(fromHalf: roundedHalf(x)))
    }
}
