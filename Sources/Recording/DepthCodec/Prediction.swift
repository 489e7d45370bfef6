/// The causal neighbourhood of a pixel and what is predicted from it.
///
/// Rows are kept with two pixels of padding on each side (replicated edges), so the inner loops
/// need no boundary tests; invalid pixels hold their prediction, so the neighbourhood is dense.
/// Contexts depend on the row above only, so a whole row of them is computed before the row is
/// coded, in a loop that vectorises, and the serial per-pixel loop never waits for them.
struct RowWindow {
    let width: Int
    private(set) var previous: UnsafeMutablePointer<UInt32>
    private(set) var current: UnsafeMutablePointer<UInt32>
    /// The context of each pixel of the current row, at the same offsets as `current`.
    let contexts: UnsafeMutablePointer<UInt8>
    private let storage: UnsafeMutablePointer<UInt32>

    init(width: Int) {
        self.width = width
        storage = .allocate(capacity: 2 * (width + 4))
        storage.initialize(repeating: 0, count: 2 * (width + 4))
        previous = storage
        current = storage + (width + 4)
        contexts = .allocate(capacity: width + 4)
        contexts.initialize(repeating: 0, count: width + 4)
    }

    func deallocate() {
        storage.deallocate()
        contexts.deallocate()
    }

    /// Makes the finished row the previous one and readies the next row.
    mutating func advance<Format: KeyFormat>(_ format: Format.Type) {
        swap(&previous, &current)
        prepare(format)
    }

    /// Pads the edges (outside pixels repeat the nearest one above) and computes the contexts.
    mutating func prepare<Format: KeyFormat>(_: Format.Type) {
        let first = previous[2], last = previous[width + 1]
        previous[0] = first; previous[1] = first
        previous[width + 2] = last; previous[width + 3] = last
        current[0] = first; current[1] = first
        if Format.valueBits <= 16 {
            computeContexts(gradient: Self.narrowGradient)
        } else {
            computeContexts(gradient: Self.gradient)
        }
    }

    /// Each pixel's context from the summed gradients along the five pixels above it, x − 2 to
    /// x + 2 (the padding covers the row ends).
    @inline(__always)
    private func computeContexts(gradient: (UInt32, UInt32) -> UInt32) {
        let above = previous
        for i in 2..<(width + 2) {
            let c2 = above[i &- 2], c = above[i &- 1], b = above[i], d = above[i &+ 1], e = above[i &+ 2]
            let activity = gradient(c, c2) &+ gradient(b, c) &+ gradient(d, b) &+ gradient(e, d)
            contexts[i] = ContextModel.context(activity: activity)
        }
    }

    /// |x − y|, capped at 2^16: any larger step already puts the pixel in the top context, and the
    /// cap keeps the summed activity (at most 2^18) exact in 32 bits and in a Float.
    @inline(__always)
    static func gradient(_ x: UInt32, _ y: UInt32) -> UInt32 {
        min(max(x, y) &- min(x, y), 1 << 16)
    }

    /// `gradient` for keys below 2^16, where the cap never applies: a signed difference and its
    /// magnitude, which vectorise in far fewer steps than the unsigned minimum and maximum.
    @inline(__always)
    static func narrowGradient(_ x: UInt32, _ y: UInt32) -> UInt32 {
        let difference = Int32(bitPattern: x &- y)
        let sign = difference &>> 31
        return UInt32(bitPattern: (difference ^ sign) &- sign)
    }

    @inline(__always)
    static func magnitude(_ x: Int) -> Int {
        let sign = x &>> 63
        return (x ^ sign) &- sign
    }

    /// LOCO-I's median edge detector (picks a, b or the plane a + b - c), as a branch-free
    /// median of the three because noisy depth makes the choice unpredictable.
    @inline(__always)
    static func medianEdge(_ a: Int, _ b: Int, _ c: Int) -> Int {
        let plane = a &+ b &- c
        return max(min(a, b), min(max(a, b), plane))
    }
}
