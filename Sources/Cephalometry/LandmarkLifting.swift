import Geometry
import Imaging
import Recording

/// How a pick became a point.
public enum LiftMethod: String, Sendable, Codable {
    /// The frame's depth at the picked pixel.
    case depth
    /// The depth had a hole there; the median of the valid depths right around it.
    case nearbyDepth
    /// The depth had a wider hole there; the pixel's ray was intersected with the mesh.
    case meshRay
}

/// A pick on a frame, lifted into the mesh's frame.
public struct LiftedPick: Sendable, Equatable {
    /// The point, metres, in the mesh's frame.
    public var point: SIMD3<Double>
    /// Depth or ray.
    public var method: LiftMethod
    /// How well the frame agrees with the fused head there, metres: the distance between the
    /// frame's own depth point and the surface point taken, or, where the surface was not
    /// taken, from the lifted point to the nearest surface (nil without a mesh).
    public var residual: Double?
}

extension HeadLandmarks {
    /// The mesh-frame point under `pixel` of `frame`'s colour image (pixel centres at
    /// integers), for a frame whose camera sits at `meshFromCamera`.
    ///
    /// Colour and depth are registered (same optical centre), so the pixel's ray is
    /// re-projected into the depth map. The sensor loses depth at edges and in dark hair, often
    /// right where a landmark is: a small hole is filled by the median of the valid depths
    /// within `depthSearchRadius`, which stay on the same skin; a wider one by intersecting the
    /// pixel's ray with `mesh`, whose surface there was fused from other frames.
    public static func lift(
        pixel: SIMD2<Double>, in frame: RGBDFrame, meshFromCamera: RigidTransform, mesh: TriangleMesh? = nil
    ) throws(CephalometryError) -> LiftedPick {
        guard pixel.x.isFinite, pixel.y.isFinite else { throw .cannotLift("the pick's pixel is not a number") }
        let k = frame.colorIntrinsics
        guard pixel.x >= -0.5, pixel.y >= -0.5, pixel.x <= Double(k.width) - 0.5, pixel.y <= Double(k.height) - 0.5 else {
            throw .cannotLift("pixel (\(pixel.x), \(pixel.y)) lies outside the \(k.width)×\(k.height) picture; pick inside it")
        }
        let ray = k.unproject(pixel, depth: 1)
        let origin = meshFromCamera.translation
        let direction = meshFromCamera.applyToVector(ray / length(ray))
        if let depthPixel = frame.depthIntrinsics.project(ray), let (z, method) = depth(at: depthPixel, in: frame.depth) {
            let point = meshFromCamera.apply(frame.depthIntrinsics.unproject(depthPixel, depth: z))
            // The fused surface averages many frames' depth; where the pixel's ray meets it
            // close to this frame's own depth, that is the same skin with less noise.
            if let mesh, let t = mesh.firstHit(origin: origin, direction: direction) {
                let hit = origin + direction * t
                if length(hit - point) <= surfaceAgreement { return LiftedPick(point: hit, method: method, residual: length(hit - point)) }
            }
            return LiftedPick(point: point, method: method, residual: mesh.map { $0.distance(to: point) })
        }
        guard let mesh else {
            throw .cannotLift("the depth has a hole at (\(pixel.x), \(pixel.y)); pick this landmark in another frame")
        }
        guard let t = mesh.firstHit(origin: origin, direction: direction) else {
            throw .cannotLift(
                "the depth has a hole at (\(pixel.x), \(pixel.y)) and the pixel's ray misses the head; pick this landmark in another frame")
        }
        return LiftedPick(point: origin + direction * t, method: .meshRay, residual: 0)
    }

    /// A frame's depth and the fused surface along the same ray count as the same skin within
    /// this (metres); the surface is then taken, being less noisy.
    public static let surfaceAgreement = 0.004

    /// Half-size of the window searched for valid depth around a pick in a small hole, in
    /// depth pixels (about 1.5 mm on the head at 30 cm).
    public static let depthSearchRadius = 3

    /// The depth at the nearest depth pixel, or the median of the valid ones around it; nil
    /// for a wider hole or outside the map.
    private static func depth(at pixel: SIMD2<Double>, in depth: DepthImage) -> (Double, LiftMethod)? {
        let cx = Int(pixel.x.rounded()), cy = Int(pixel.y.rounded())
        guard depth.contains(x: cx, y: cy) else { return nil }
        let centre = depth[cx, cy]
        if centre.isFinite, centre > 0 { return (Double(centre), .depth) }
        var valid: [Float] = []
        let r = depthSearchRadius
        for y in (cy - r)...(cy + r) {
            for x in (cx - r)...(cx + r) where depth.contains(x: x, y: y) {
                let d = depth[x, y]
                if d.isFinite, d > 0 { valid.append(d) }
            }
        }
        guard !valid.isEmpty else { return nil }
        valid.sort()
        return (Double(valid[valid.count / 2]), .nearbyDepth)
    }
}
