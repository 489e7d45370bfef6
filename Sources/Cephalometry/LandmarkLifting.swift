import Geometry
import Imaging
import Recording

extension HeadLandmarks {
    /// Half-size of the window searched for valid depth around an annotated pixel, in depth
    /// pixels; the sensor loses depth at edges and dark hair, often right where a landmark is.
    public static let depthSearchRadius = 3

    /// The mesh-frame point under a 2D annotation: `pixel` in the frame's colour image, the
    /// frame's depth there, and the pose `meshFromCamera` of the frame.
    ///
    /// Colour and depth are registered (same optical centre), so the pixel's ray is re-projected
    /// into the depth map. Where the depth there is NaN, the median of the valid depths within
    /// `depthSearchRadius` is used.
    public static func lift(
        pixel: SIMD2<Double>, in frame: RGBDFrame, meshFromCamera: RigidTransform
    ) throws(CephalometryError) -> SIMD3<Double> {
        guard pixel.x.isFinite, pixel.y.isFinite else { throw .cannotLift("the annotation's pixel is not a number") }
        let ray = frame.colorIntrinsics.unproject(pixel, depth: 1)
        guard let depthPixel = frame.depthIntrinsics.project(ray) else {
            throw .cannotLift("the pixel does not map into the depth map")
        }
        let depth = frame.depth
        let cx = Int(depthPixel.x.rounded()), cy = Int(depthPixel.y.rounded())
        guard depth.contains(x: cx, y: cy) else {
            throw .cannotLift("pixel (\(pixel.x), \(pixel.y)) lies outside the image; annotate inside the picture")
        }
        let z: Double
        let centre = depth[cx, cy]
        if centre.isFinite, centre > 0 {
            z = Double(centre)
        } else {
            var valid: [Float] = []
            let r = depthSearchRadius
            for y in (cy - r)...(cy + r) {
                for x in (cx - r)...(cx + r) where depth.contains(x: x, y: y) {
                    let d = depth[x, y]
                    if d.isFinite, d > 0 { valid.append(d) }
                }
            }
            guard !valid.isEmpty else {
                throw .cannotLift("the depth map has no value within \(r) pixels of (\(pixel.x), \(pixel.y)); annotate this landmark in another frame")
            }
            valid.sort()
            z = Double(valid[valid.count / 2])
        }
        return meshFromCamera.apply(frame.depthIntrinsics.unproject(depthPixel, depth: z))
    }
}
