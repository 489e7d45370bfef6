/// A rectangle of pixels: columns `x..<x + width`, rows `y..<y + height`.
struct PixelRegion: Equatable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int

    /// Whether every pixel of `other` lies in this region.
    func contains(_ other: PixelRegion) -> Bool {
        other.x >= x && other.y >= y && other.x + other.width <= x + width && other.y + other.height <= y + height
    }
}

/// Binarises a gray image against its local mean, computed from an integral image so that
/// the cost does not depend on the window size, and one integral image serves every window.
///
/// The output is padded by one background pixel on every side, which the contour tracer
/// needs so that it never steps outside the buffer. Foreground (1) marks pixels darker than
/// the mean of their window by more than `offset`; everything else is background (0).
/// Windows are clipped to the image, never to the region binarised, so a region's pixels get
/// the same values as in a binarisation of the whole image.
struct AdaptiveThreshold {
    /// Side of the square window, in pixels (odd).
    var window: Int
    /// How much darker than the local mean a pixel must be to count as foreground.
    var offset: Int

    /// Writes the integral image of `gray` ((width + 1) x (height + 1), zero first row and
    /// column) into `integral`, resizing it as needed.
    static func integrate(_ gray: GrayImageView, into integral: inout [UInt32]) {
        let width = gray.width, height = gray.height
        let stride = width + 1
        integral.removeAll(keepingCapacity: true)
        integral.append(contentsOf: repeatElement(0, count: stride * (height + 1)))
        integral.withUnsafeMutableBufferPointer { sums in
            for y in 0..<height {
                let row = gray.pixels + y * width
                let above = y * stride, here = (y + 1) * stride
                var running: UInt32 = 0
                for x in 0..<width {
                    running &+= UInt32(row[x])
                    sums[here + x + 1] = sums[above + x + 1] &+ running
                }
            }
        }
    }

    /// Writes the padded binary image of `region` of `gray` into `output`
    /// ((region.width + 2) x (region.height + 2)), resizing it as needed. `integral` is
    /// `gray`'s integral image.
    func apply(_ gray: GrayImageView, integral: [UInt32], region: PixelRegion, output: inout [Int8]) {
        let padded = region.width + 2
        output.removeAll(keepingCapacity: true)
        output.append(contentsOf: repeatElement(0, count: padded * (region.height + 2)))
        guard region.width > 0, region.height > 0 else { return }
        let width = gray.width, height = gray.height
        let stride = width + 1
        let radius = window / 2
        let offset = Int32(self.offset)
        // Window limits per column are the same for every row; compute them once.
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * region.width) { limits in
            for k in 0..<region.width {
                let x = region.x + k
                limits[2 * k] = max(0, x - radius)
                limits[2 * k + 1] = min(width, x + radius + 1)
            }
            integral.withUnsafeBufferPointer { sums in
                output.withUnsafeMutableBufferPointer { out in
                    for k in 0..<region.height {
                        let y = region.y + k
                        let top = max(0, y - radius) * stride
                        let bottom = min(height, y + radius + 1) * stride
                        let rows = Int32(min(height, y + radius + 1) - max(0, y - radius))
                        let row = gray.pixels + y * width + region.x
                        let outRow = (k + 1) * padded + 1
                        for j in 0..<region.width {
                            let x0 = limits[2 * j], x1 = limits[2 * j + 1]
                            let sum = Int32(bitPattern: sums[bottom + x1] &- sums[top + x1] &- sums[bottom + x0] &+ sums[top + x0])
                            let count = Int32(x1 - x0) &* rows
                            // p < mean - offset, kept in integers: (p + offset) * count < sum.
                            let value = (Int32(row[j]) &+ offset) &* count
                            out[outRow + j] = value < sum ? 1 : 0
                        }
                    }
                }
            }
        }
    }
}
