/// The causal neighbourhood of a pixel and what is predicted from it.
///
/// Rows are kept with two pixels of padding on each side (replicated edges), so the inner loops
/// need no boundary tests; invalid pixels hold their prediction, so the neighbourhood is dense.
struct RowWindow {
    let width: Int
    private(set) var previous: UnsafeMutablePointer<UInt32>
    private(set) var current: UnsafeMutablePointer<UInt32>
    private let storage: UnsafeMutablePointer<UInt32>

    init(width: Int) {
        self.width = width
        storage = .allocate(capacity: 2 * (width + 4))
        storage.initialize(repeating: 0, count: 2 * (width + 4))
        previous = storage
        current = storage + (width + 4)
    }

    func deallocate() { storage.deallocate() }

    /// Makes the finished row the previous one and pads the edges for the next row.
    mutating func advance() {
        swap(&previous, &current)
        prepare()
    }

    /// Pads the edges: outside pixels repeat the nearest one above.
    mutating func prepare() {
        let first = previous[2], last = previous[width + 1]
        previous[0] = first; previous[1] = first
        previous[width + 2] = last; previous[width + 3] = last
        current[0] = first; current[1] = first
    }

    /// Summed gradients around the pixel: flat surfaces give small residuals, edges large ones.
    @inline(__always)
    static func activity(_ a: Int, _ b: Int, _ c: Int, _ d: Int) -> Int {
        magnitude(d &- b) &+ magnitude(b &- c) &+ magnitude(c &- a)
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
