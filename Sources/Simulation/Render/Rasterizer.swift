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
        // Taken out, not copied: a copy would make the first write duplicate each buffer.
        var depth: [Float] = [], face: [Int32] = []
        swap(&depth, &self.depth)
        swap(&face, &self.face)
        defer { swap(&depth, &self.depth); swap(&face, &self.face) }
        depth.withUnsafeMutableBufferPointer { depthBuffer in
            face.withUnsafeMutableBufferPointer { faceBuffer in
                for (index, f) in faces.enumerated() {
                    let a = vertices[Int(f.x)], b = vertices[Int(f.y)], c = vertices[Int(f.z)]
                    let n = cross(b - a, c - a)
                    let p0 = projected[Int(f.x)], p1 = projected[Int(f.y)], p2 = projected[Int(f.z)]
                    // Outward faces seen from outside face the camera: n·a < 0. A face that is
                    // not drawn covers no pixel, so its plane is never read and stays unset;
                    // most faces of the fine head mesh are back faces or hold no pixel centre.
                    guard dot(n, a) < 0, a.z > Self.near, b.z > Self.near, c.z > Self.near,
                        let box = pixelBox(p0, p1, p2)
                    else {
                        planes.append(SIMD4(0, 0, -1, 0))
                        continue
                    }
                    let unit = n / length(n)
                    planes.append(SIMD4(unit, dot(unit, a)))
                    fill(p0, p1, p2, box: box, plane: planes[index], index: Int32(index), depth: depthBuffer, face: faceBuffer)
                }
            }
        }
    }

    /// The pixels whose centres the triangle's bounding box holds, clipped to the picture;
    /// nil when there are none.
    @inline(__always)
    private func pixelBox(_ p0: SIMD3<Double>, _ p1: SIMD3<Double>, _ p2: SIMD3<Double>) -> (x: ClosedRange<Int>, y: ClosedRange<Int>)? {
        // −floor(−v) is the ceiling; FastTrig.floor avoids a libm call per corner.
        let minX = max(0, -FastTrig.floor(-min(p0.x, p1.x, p2.x)))
        let maxX = min(intrinsics.width - 1, FastTrig.floor(max(p0.x, p1.x, p2.x)))
        let minY = max(0, -FastTrig.floor(-min(p0.y, p1.y, p2.y)))
        let maxY = min(intrinsics.height - 1, FastTrig.floor(max(p0.y, p1.y, p2.y)))
        guard minX <= maxX, minY <= maxY else { return nil }
        return (minX...maxX, minY...maxY)
    }

    /// Fills the pixels whose centres lie inside the projected triangle.
    private func fill(
        _ p0: SIMD3<Double>, _ p1: SIMD3<Double>, _ p2: SIMD3<Double>, box: (x: ClosedRange<Int>, y: ClosedRange<Int>),
        plane: SIMD4<Double>, index: Int32, depth: UnsafeMutableBufferPointer<Float>, face: UnsafeMutableBufferPointer<Int32>
    ) {
        let width = intrinsics.width
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
        let dx = n.x / k.fx, dy = n.y / k.fy, d0 = n.z - dx * k.cx - dy * k.cy
        // Edge functions are evaluated afresh at every pixel, not stepped: a shared edge then
        // gives exactly opposite values in its two triangles, so no pixel falls through a crack.
        for y in box.y {
            let fy = Double(y)
            let r0 = e.0.y * fy + e.0.z, r1 = e.1.y * fy + e.1.z, r2 = e.2.y * fy + e.2.z
            let rowDenominator = dy * fy + d0
            let row = y * width
            for x in box.x {
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
