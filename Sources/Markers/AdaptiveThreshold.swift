/// Binarises a gray image against its local mean, computed from an integral image so that
/// the cost does not depend on the window size.
///
/// The output is padded by one background pixel on every side, which the contour tracer
/// needs so that it never steps outside the buffer. Foreground (1) marks pixels darker than
/// the mean of their window by more than `offset`; everything else is background (0).
struct AdaptiveThreshold {
    /// Side of the square window, in pixels (odd).
    var window: Int
    /// How much darker than the local mean a pixel must be to count as foreground.
    var offset: Int

    /// Writes the padded binary image for `gray` into `output`, resizing it as needed.
    func apply(_ gray: GrayImageView, integral: inout [UInt32], output: inout [Int8]) {
        let width = gray.width, height = gray.height
        let stride = width + 1
        integral.removeAll(keepingCapacity: true)
        integral.append(contentsOf: repeatElement(0, count: stride * (height + 1)))
        let padded = width + 2
        output.removeAll(keepingCapacity: true)
        output.append(contentsOf: repeatElement(0, count: padded * (height + 2)))
        guard width > 0, height > 0 else { return }
        let radius = window / 2
        let offset = Int32(self.offset)

        integral.withUnsafeMutableBufferPointer { sums in
            for y in 0..<height {
                let row = gray.pixels + y * width
                let above = (y) * stride, here = (y + 1) * stride
                var running: UInt32 = 0
                for x in 0..<width {
                    running &+= UInt32(row[x])
                    sums[here + x + 1] = sums[above + x + 1] &+ running
                }
            }
        }

        // Window limits per column are the same for every row; compute them once.
        var left = [Int](repeating: 0, count: width)
        var right = [Int](repeating: 0, count: width)
        for x in 0..<width {
            left[x] = max(0, x - radius)
            right[x] = min(width, x + radius + 1)
        }

        integral.withUnsafeBufferPointer { sums in
            output.withUnsafeMutableBufferPointer { out in
                left.withUnsafeBufferPointer { left in
                    right.withUnsafeBufferPointer { right in
                        for y in 0..<height {
                            let top = max(0, y - radius) * stride
                            let bottom = min(height, y + radius + 1) * stride
                            let rows = Int32(min(height, y + radius + 1) - max(0, y - radius))
                            let row = gray.pixels + y * width
                            let outRow = (y + 1) * padded + 1
                            for x in 0..<width {
                                let x0 = left[x], x1 = right[x]
                                let sum = Int32(bitPattern: sums[bottom + x1] &- sums[top + x1] &- sums[bottom + x0] &+ sums[top + x0])
                                let count = Int32(x1 - x0) &* rows
                                // p < mean - offset, kept in integers: (p + offset) * count < sum.
                                let value = (Int32(row[x]) &+ offset) &* count
                                out[outRow + x] = value < sum ? 1 : 0
                            }
                        }
                    }
                }
            }
        }
    }
}
