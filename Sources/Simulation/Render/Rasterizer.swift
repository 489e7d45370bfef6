import Geometry

/// Which triangle is nearest at every pixel, and its exact depth there.
///
/// Depth is the ray–plane intersection of the pixel's ray with the triangle's plane, so it is
/// the exact distance along the optical axis to the mesh, not an interpolation.
struct Rasterizer {
    let intrinsics: CameraIntrinsics
    /// Nearest depth per pixel (metres along the optical axis); infinity where nothing is.
    private(set) var depth: [Float]
    /// Index of the nearest triangle per pixel; −1 where nothing is.
    private(set) var face: [Int32]
    /// Triangle planes in the camera frame: unit normal n and offset k with n·p = k.
    private(set) var planes: [SIMD4<Double>] = []

    /// Triangles closer than this are not drawn (the sensor sees nothing there anyway).
    static let near = 0.05

    init(intrinsics: CameraIntrinsics) {
        self.intrinsics = intrinsics
        let count = intrinsics.width * intrinsics.height
        depth = [Float](repeating: .infinity, count: count)
        face = [Int32](repeating: -1, count: count)
    }

    /// Clears the buffers and draws `faces` of `vertices` (camera frame), front faces only.
    mutating func draw(vertices: [SIMD3<Double>], faces: [SIMD3<Int32>]) {
        depth.withUnsafeMutableBufferPointer { $0.update(repeating: .infinity) }
        face.withUnsafeMutableBufferPointer { $0.update(repeating: -1) }
        planes.removeAll(keepingCapacity: true)
        planes.reserveCapacity(faces.count)
        let k = intrinsics
        let projected = vertices.map { v -> SIMD3<Double> in
            SIMD3(k.fx * v.x / v.z + k.cx, k.fy * v.y / v.z + k.cy, v.z)
        }
        var depth = self.depth, face = self.face
        defer { self.depth = depth; self.face = face }
        depth.withUnsafeMutableBufferPointer { depthBuffer in
            face.withUnsafeMutableBufferPointer { faceBuffer in
                for (index, f) in faces.enumerated() {
                    let a = vertices[Int(f.x)], b = vertices[Int(f.y)], c = vertices[Int(f.z)]
                    let n = cross(b - a, c - a)
                    // Outward faces seen from outside face the camera: n·a < 0. A face that is
                    // not drawn covers no pixel, so its plane is never read and stays unset.
                    guard dot(n, a) < 0, a.z > Self.near, b.z > Self.near, c.z > Self.near else {
                        planes.append(SIMD4(0, 0, -1, 0))
                        continue
                    }
                    let unit = n / length(n)
                    planes.append(SIMD4(unit, dot(unit, a)))
                    fill(
                        projected[Int(f.x)], projected[Int(f.y)], projected[Int(f.z)], plane: planes[index],
                        index: Int32(index), depth: depthBuffer, face: faceBuffer)
                }
            }
        }
    }

    /// Fills the pixels whose centres lie inside the projected triangle.
    private func fill(
        _ p0: SIMD3<Double>, _ p1: SIMD3<Double>, _ p2: SIMD3<Double>, plane: SIMD4<Double>, index: Int32,
        depth: UnsafeMutableBufferPointer<Float>, face: UnsafeMutableBufferPointer<Int32>
    ) {
        let width = intrinsics.width, height = intrinsics.height
        let minX = max(0, Int((min(p0.x, p1.x, p2.x)).rounded(.up)))
        let maxX = min(width - 1, Int((max(p0.x, p1.x, p2.x)).rounded(.down)))
        let minY = max(0, Int((min(p0.y, p1.y, p2.y)).rounded(.up)))
        let maxY = min(height - 1, Int((max(p0.y, p1.y, p2.y)).rounded(.down)))
        guard minX <= maxX, minY <= maxY else { return }
        // Edge functions; the sign of the area picks which side is inside.
        let area = (p1.x - p0.x) * (p2.y - p0.y) - (p1.y - p0.y) * (p2.x - p0.x)
        guard area != 0 else { return }
        let s = area > 0 ? 1.0 : -1.0
        // Inside when a·x + b·y + c ≥ 0 for all three edges (after the sign flip).
        func edge(_ u: SIMD3<Double>, _ v: SIMD3<Double>) -> SIMD3<Double> {
            SIMD3(s * (u.y - v.y), s * (v.x - u.x), s * (u.x * v.y - u.y * v.x))
        }
        let e = (edge(p1, p2), edge(p2, p0), edge(p0, p1))
        let k = intrinsics
        let n = SIMD3(plane.x, plane.y, plane.z)
        // z = k / (n · ((x − cx)/fx, (y − cy)/fy, 1)): the denominator is linear in x and y.
        let dx = n.x / k.fx, dy = n.y / k.fy, d0 = n.z - n.x * k.cx / k.fx - n.y * k.cy / k.fy
        // Edge functions are evaluated afresh at every pixel, not stepped: a shared edge then
        // gives exactly opposite values in its two triangles, so no pixel falls through a crack.
        for y in minY...maxY {
            let fy = Double(y)
            let r0 = e.0.y * fy + e.0.z, r1 = e.1.y * fy + e.1.z, r2 = e.2.y * fy + e.2.z
            let rowDenominator = dy * fy + d0
            let row = y * width
            for x in minX...maxX {
                let fx = Double(x)
                guard e.0.x * fx + r0 >= 0, e.1.x * fx + r1 >= 0, e.2.x * fx + r2 >= 0 else { continue }
                let z = Float(plane.w / (dx * fx + rowDenominator))
                if z < depth[row + x] {
                    depth[row + x] = z
                    face[row + x] = index
                }
            }
        }
    }
}
