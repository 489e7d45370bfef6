/// Adaptive Golomb–Rice statistics per context: a running magnitude that forgets geometrically.
///
/// Each context keeps A ≈ 2^memoryShift × the mean recent residual magnitude, updated as
/// A ← A − A/2^memoryShift + |residual|, and codes with the smallest k for which
/// 2^(k + memoryShift) ≥ A. That is JPEG-LS's N·2^k ≥ A with N fixed, which needs no count,
/// no halving and no cap: magnitudes are at most M = 2^(valueBits − 1), so A, starting below
/// 2^memoryShift × M, never rises above it (nor below 1), and k stays below valueBits.
/// JPEG-LS's bias correction is left out: on sensor depth it cost size rather than saving it.
/// Encoder and decoder update identically, so no tables are sent.
///
/// Updates lag one value behind: a value's magnitude is learnt only after the next value has
/// looked up its Rice parameter, which keeps the update (a load, add and store through memory)
/// off the decoder's pixel-to-pixel dependency chain.
struct ContextModel {
    static let contextCount = 32
    /// Unary prefixes at or above this length mean "escape: raw value follows".
    static let unaryLimit = 24
    /// The running magnitude forgets at a rate of 2^-memoryShift per coded value.
    static let memoryShift = 4
    /// A spare slot that is never looked up, named by the pending update before the first value.
    private static let idleContext = contextCount

    private let magnitudes: UnsafeMutablePointer<Int>
    private var pendingContext = idleContext
    private var pendingMagnitude = 0

    init() {
        magnitudes = .allocate(capacity: Self.contextCount + 1)
        // A mean magnitude of 4 to start with.
        magnitudes.initialize(repeating: 4 << Self.memoryShift, count: Self.contextCount + 1)
    }

    func deallocate() { magnitudes.deallocate() }

    /// Context from the summed gradients of the row above: 0 for a flat row, then two buckets per
    /// octave (2 for activity 1, 4 and 5 for 2 and 3, …), capped at the last context. Activity is
    /// at most 2^18, so its Float is exact, with the octave in the exponent and the half-octave in
    /// the top mantissa bit; zero's pattern is below every other and is clamped to context 0.
    @inline(__always)
    static func context(activity: UInt32) -> UInt8 {
        let bits = Float(Int32(bitPattern: activity)).bitPattern
        // (127 + octave) × 2 + half; activity 1 gives 254.
        let octaves = max(bits &>> 22, 252) &- 252
        return UInt8(truncatingIfNeeded: min(octaves, UInt32(contextCount - 1)))
    }

    /// Rice parameter for the next value coded in `ctx`; then learns from the value before it.
    @inline(__always)
    mutating func nextParameter(_ ctx: Int) -> Int {
        let a = magnitudes[ctx]
        let k = 64 &- ((a &- 1) &>> Self.memoryShift).leadingZeroBitCount
        let pending = magnitudes + pendingContext
        pending.pointee = pending.pointee &- (pending.pointee &>> Self.memoryShift) &+ pendingMagnitude
        return k
    }

    /// Notes the signed residual just coded in `ctx`, learnt when the next value is coded.
    @inline(__always)
    mutating func record(_ ctx: Int, residual: Int) {
        pendingContext = ctx
        pendingMagnitude = RowWindow.magnitude(residual)
    }
}

/// Adaptive Rice coding for run lengths of the validity mask.
struct RunModel {
    private var magnitude = (16, 16)
    private var count = (1, 1)

    func riceParameter(_ valid: Bool) -> Int {
        let a = valid ? magnitude.1 : magnitude.0, n = valid ? count.1 : count.0
        var k = max(0, n.leadingZeroBitCount - a.leadingZeroBitCount)
        if n << k < a { k += 1 }
        return min(k, 30)
    }

    mutating func update(_ valid: Bool, length: Int) {
        var a = (valid ? magnitude.1 : magnitude.0) + length, n = (valid ? count.1 : count.0) + 1
        if n == 32 { a >>= 1; n >>= 1 }
        if valid { magnitude.1 = a; count.1 = n } else { magnitude.0 = a; count.0 = n }
    }
}
