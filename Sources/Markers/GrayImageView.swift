/// Read-only access to a gray image's pixels for the duration of one detection, so the hot
/// loops index a raw pointer instead of a copy-on-write array.
struct GrayImageView {
    let pixels: UnsafePointer<UInt8>
    let width: Int
    let height: Int

    /// Bilinear interpolation at (x, y), pixel centres at integers; coordinates outside the
    /// image are clamped to its edge.
    @inline(__always)
    func bilinear(_ x: Double, _ y: Double) -> Double {
        let cx = min(max(x, 0), Double(width - 1))
        let cy = min(max(y, 0), Double(height - 1))
        let x0 = min(Int(cx), width - 2 < 0 ? 0 : width - 2)
        let y0 = min(Int(cy), height - 2 < 0 ? 0 : height - 2)
        let fx = cx - Double(x0), fy = cy - Double(y0)
        let x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
        let top = pixels + y0 * width, bottom = pixels + y1 * width
        let a = Double(top[x0]), b = Double(top[x1])
        let c = Double(bottom[x0]), d = Double(bottom[x1])
        let upper = a + (b - a) * fx
        let lower = c + (d - c) * fx
        return upper + (lower - upper) * fy
    }
}
