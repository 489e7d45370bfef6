/// Adaptive Golomb–Rice statistics per context, as in JPEG-LS: running magnitude A over count N.
///
/// JPEG-LS's bias correction is left out: on sensor depth it cost size rather than saving it
/// (the residuals are noise-dominated and unbiased) and it lengthened the decoder's loop.
/// Encoder and decoder update it identically after every coded value, so no tables are sent.
/// The numbers of a context sit side by side so one cache line serves a pixel, and the Rice
/// parameter is derived when a context is updated rather than when it is next used, which takes
/// it off the decoder's pixel-to-pixel dependency chain.
struct ContextModel {
    static let contextCount = 32
    /// Halving A and N every `resetCount` codes keeps the estimate local to the surface at hand.
    static let resetCount = 64
    /// Unary prefixes at or above this length mean "escape: raw value follows".
    static let unaryLimit = 24

    private let stats: UnsafeMutablePointer<Int>
    let maxK: Int

    init(valueBits: Int) {
        stats = .allocate(capacity: Self.contextCount * 4)
        maxK = valueBits - 1
        for ctx in 0..<Self.contextCount {
            (stats + ctx * 4).initialize(from: [4, 1, Self.riceParameter(4, 1, maxK: maxK), 0], count: 4)
        }
    }

    func deallocate() { stats.deallocate() }

    /// Context from local activity: two buckets per octave of the summed gradients.
    @inline(__always)
    static func context(activity: Int) -> Int {
        let width = 64 &- activity.leadingZeroBitCount
        let half = width >= 2 ? (activity &>> (width &- 2)) & 1 : 0
        return min(width &* 2 &+ half, contextCount &- 1)
    }

    /// Rice parameter for the next value coded in `ctx`.
    @inline(__always)
    func riceParameter(_ ctx: Int) -> Int { stats[ctx &* 4 &+ 2] }

    /// The smallest k with N·2^k ≥ A, capped to the value width.
    @inline(__always)
    static func riceParameter(_ a: Int, _ n: Int, maxK: Int) -> Int {
        var k = max(0, n.leadingZeroBitCount &- a.leadingZeroBitCount)
        if n &<< k < a { k &+= 1 }
        return min(k, maxK)
    }

    /// Learns from the signed residual just coded in `ctx`.
    @inline(__always)
    func update(_ ctx: Int, residual: Int) {
        let s = stats + ctx &* 4
        var a = s[0] &+ RowWindow.magnitude(residual), n = s[1]
        if n == Self.resetCount {
            a &>>= 1; n &>>= 1
        }
        n &+= 1
        s[0] = a; s[1] = n
        s[2] = Self.riceParameter(a, n, maxK: maxK)
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
