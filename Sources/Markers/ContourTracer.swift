/// Finds the outer borders of the foreground regions of a padded binary image by Suzuki and
/// Abe's border following (the algorithm behind OpenCV's findContours).
///
/// Hole borders are traced too, because marking their pixels is what stops a raster scan
/// from mistaking the inside of a hole for the outside of a new region; only outer borders
/// are reported. Each one is handed to `body` as soon as it is traced, in a reused buffer,
/// so no memory is allocated per contour.
struct ContourTracer {
    /// Longest contour kept; longer ones are still traced (to mark them) but not reported.
    var maxLength: Int
    /// Shortest contour reported.
    var minLength: Int

    // Marks written into the binary image: border pixels whose east neighbour is background,
    // and other visited border pixels. Unvisited foreground stays 1, background 0.
    private static let eastOpen: Int8 = -2
    private static let visited: Int8 = 2

    /// Traces every border of `image` (padded, `width` x `height` including the padding) and
    /// calls `body` with the points of each outer border in unpadded pixel coordinates plus
    /// `origin` (where the image's first unpadded pixel lies in a larger picture).
    func trace(
        _ image: inout [Int8], width: Int, height: Int, origin: SIMD2<Int32> = .zero, points: inout [SIMD2<Int32>],
        _ body: (UnsafeBufferPointer<SIMD2<Int32>>) -> Void
    ) {
        guard width > 2, height > 2 else { return }
        // Neighbour offsets, counter-clockwise on screen starting east, repeated so that
        // a search may run past direction 7 without wrapping arithmetic.
        let w = width
        let deltas: [Int] = [1, -w + 1, -w, -w - 1, -1, w - 1, w, w + 1]
        points.removeAll(keepingCapacity: true)
        points.reserveCapacity(maxLength + 1)
        image.withUnsafeMutableBufferPointer { buffer in
            let f = buffer.baseAddress!
            deltas.withUnsafeBufferPointer { deltas in
                for y in 1..<(height - 1) {
                    var x = 1
                    let rowStart = y * w
                    while x < w - 1 {
                        let i = rowStart + x
                        let value = f[i]
                        if value == 0 {
                            x += 1
                            continue
                        }
                        if value == 1 && f[i - 1] == 0 {
                            let length = follow(f, start: i, fromDirection: 4, deltas: deltas, width: w, record: true, points: &points)
                            if length >= minLength && length <= maxLength {
                                // Points were stored as buffer offsets; only kept contours pay
                                // for turning them into coordinates.
                                for k in points.indices {
                                    let offset = Int(points[k].x)
                                    points[k] = SIMD2(Int32(offset % w - 1), Int32(offset / w - 1)) &+ origin
                                }
                                points.withUnsafeBufferPointer(body)
                            }
                        } else if f[i + 1] == 0 {
                            // A hole border starts here unless this pixel was already marked
                            // as lying on a border with open east side.
                            if value != Self.eastOpen {
                                _ = follow(f, start: i, fromDirection: 0, deltas: deltas, width: w, record: false, points: &points)
                            }
                        }
                        x += 1
                    }
                }
            }
        }
    }

    /// Follows one border from `start`, whose neighbour in `fromDirection` is background;
    /// marks its pixels and, when `record` is set, stores them. Returns the border length,
    /// or `maxLength + 1` when it was longer than that.
    @inline(__always)
    private func follow(
        _ f: UnsafeMutablePointer<Int8>, start: Int, fromDirection: Int, deltas: UnsafeBufferPointer<Int>,
        width: Int, record: Bool, points: inout [SIMD2<Int32>]
    ) -> Int {
        points.removeAll(keepingCapacity: true)
        // Clockwise from the background neighbour, find the first foreground neighbour.
        var s = fromDirection
        var found = false
        for _ in 0..<7 {
            s = (s &- 1) & 7
            if f[start + deltas[s]] != 0 { found = true; break }
        }
        guard found else {
            f[start] = Self.eastOpen
            if record { points.append(SIMD2(Int32(truncatingIfNeeded: start), 0)) }
            return 1
        }
        // The border is followed counter-clockwise, so this first clockwise neighbour is the
        // border's last pixel: reaching start from it closes the border.
        let last = start + deltas[s]
        var current = start
        var length = 0
        while true {
            // Counter-clockwise from the previous pixel, find the next border pixel, noting
            // whether the east neighbour was examined and found to be background.
            let previous = s
            var eastIsBackground = false
            var next = current
            var k = previous
            repeat {
                k = (k &+ 1) & 7
                next = current + deltas[k]
                if f[next] != 0 { break }
                if k == 0 { eastIsBackground = true }
            } while true
            if eastIsBackground {
                f[current] = Self.eastOpen
            } else if f[current] == 1 {
                f[current] = Self.visited
            }
            if record {
                if length < maxLength { points.append(SIMD2(Int32(truncatingIfNeeded: current), 0)) }
            }
            length += 1
            if next == start && current == last { break }
            current = next
            s = (k &+ 4) & 7
        }
        return length > maxLength ? maxLength + 1 : length
    }
}
