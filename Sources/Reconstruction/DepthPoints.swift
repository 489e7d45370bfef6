import Geometry
import Imaging

extension Image where Pixel == Float {
    /// Every `step`-th pixel each way (starting half a step in) whose depth is finite and lies
    /// strictly between `nearest` and `farthest` metres, unprojected into the camera frame:
    /// `body` gets its column, row and point. The one walk over a depth frame that finding the
    /// head, the whole view and the registration's samples share.
    @inline(__always)
    func forEachPoint(
        step: Int, intrinsics k: CameraIntrinsics, nearest: Double = 0, farthest: Double = .infinity,
        _ body: (_ x: Int, _ y: Int, _ point: SIMD3<Double>) -> Void
    ) {
        let step = max(1, step)
        for y in stride(from: step / 2, to: height, by: step) {
            for x in stride(from: step / 2, to: width, by: step) {
                let z = Double(pixels[y * width + x])
                guard z.isFinite, z > nearest, z < farthest else { continue }
                body(x, y, k.unproject(SIMD2(Double(x), Double(y)), depth: z))
            }
        }
    }
}
