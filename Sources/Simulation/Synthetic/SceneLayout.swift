import Geometry
import Imaging

#if canImport(Darwin)
import Darwin
#else
import Glibc
#endif

/// Where a camera ray first meets the scene.
struct SurfaceHit {
    enum Surface: UInt8 { case head, torso, wall, none }
    var surface: Surface
    /// Distance along the camera's z axis, metres (infinity when nothing is hit).
    var depth: Float
    /// |cos| of the angle between surface normal and ray; near 0 at grazing angles.
    var facing: Float
    /// Lambertian factor for the scene light, 0...1.
    var lambert: Float
    /// World position of the hit, for textures.
    var point: SIMD3<Float>
}

/// A pinhole camera placed in the world: rays for pixels.
struct SceneCamera {
    var origin: SIMD3<Float>
    /// Columns of the camera-to-world rotation.
    var axisX: SIMD3<Float>, axisY: SIMD3<Float>, axisZ: SIMD3<Float>
    var fx: Float, fy: Float, cx: Float, cy: Float

    /// World direction of pixel (x, y), scaled so that its camera-z component is 1.
    @inline(__always)
    func ray(x: Int, y: Int) -> SIMD3<Float> {
        let u = (Float(x) - cx) / fx, v = (Float(y) - cy) / fy
        return axisX * u + axisY * v + axisZ
    }
}

/// The fixed part of the scene: shapes, light, textures and the camera's path, all from the seed.
struct SceneLayout: Sendable {
    let headCentre: SIMD3<Float>
    let headRadii: SIMD3<Float>
    let torsoCentre = SIMD3<Float>(0.03, 0.34, 0.97)
    let torsoRadii = SIMD3<Float>(0.26, 0.32, 0.13)
    /// Wall: points p with dot(wallNormal, p) = wallOffset.
    let wallNormal = SIMD3<Float>(-0.16, 0.05, 1).normalizedVector
    let wallOffset: Float = 1.3
    let light = SIMD3<Float>(-0.35, -0.5, -1).normalizedVector
    let phases: SIMD4<Float>
    let noise: ValueNoise

    init(seed: UInt64) {
        var rng = Xoshiro256(seed: seed)
        let size = 0.95 + 0.1 * rng.unitFloat()
        headRadii = SIMD3(0.066, 0.074, 0.084) * size
        headCentre = SIMD3(0.004 * rng.gaussian(), 0.012, 0.365)
        phases = SIMD4(rng.unitFloat(), rng.unitFloat(), rng.unitFloat(), rng.unitFloat()) * 6.2831855
        noise = ValueNoise(seed: rng.next())
    }

    /// The camera of frame `index`: a slow sway around the head with a little hand tremor.
    func camera(at index: Int, fx: Float, fy: Float, cx: Float, cy: Float) -> SceneCamera {
        let t = Float(index) / 30
        let yaw = 0.10 * sin(0.6 * t + phases.x) + 0.004 * sin(7.1 * t + phases.y)
        let pitch = 0.05 * sin(0.43 * t + phases.z) + 0.003 * sin(8.3 * t + phases.w)
        let (sy, cyaw) = (sin(yaw), cos(yaw)), (sp, cp) = (sin(pitch), cos(pitch))
        let axisX = SIMD3<Float>(cyaw, 0, -sy)
        let axisY = SIMD3<Float>(sy * sp, cp, cyaw * sp)
        let axisZ = SIMD3<Float>(sy * cp, -sp, cyaw * cp)
        let distance: Float = 0.365 + 0.02 * sin(0.31 * t + phases.y)
        let origin = headCentre - axisZ * distance + SIMD3(0.002 * sin(5.3 * t), 0.002 * sin(6.7 * t), 0)
        return SceneCamera(origin: origin, axisX: axisX, axisY: axisY, axisZ: axisZ, fx: fx, fy: fy, cx: cx, cy: cy)
    }

    /// Camera colour for a hit: shaded albedo plus sensor noise from the 64 random bits `noise`.
    @inline(__always)
    func shade(_ hit: SurfaceHit, noise: UInt64) -> RGBA8 {
        let albedo = self.albedo(hit)
        let light = 0.28 + 0.72 * hit.lambert
        let base = albedo * light * 255
        // Sum of two uniform bytes: triangular noise, sigma about 2.5 levels per channel.
        let n0 = Float(Int(noise & 0xFF) + Int((noise >> 8) & 0xFF) - 255)
        let n1 = Float(Int((noise >> 16) & 0xFF) + Int((noise >> 24) & 0xFF) - 255)
        let n2 = Float(Int((noise >> 32) & 0xFF) + Int((noise >> 40) & 0xFF) - 255)
        let c = base + SIMD3(n0, n1, n2) * 0.024
        return RGBA8(r: Self.byte(c.x), g: Self.byte(c.y), b: Self.byte(c.z))
    }

    @inline(__always)
    private static func byte(_ v: Float) -> UInt8 { UInt8(min(max(v, 0), 255)) }

    @inline(__always)
    private func albedo(_ hit: SurfaceHit) -> SIMD3<Float> {
        let p = hit.point
        switch hit.surface {
        case .head:
            // A knitted cap: fine ribs and a gentle blotchy dye.
            let rib = 0.5 + 0.5 * Float(FastTrig.sin(Double(p.x * 900 + 40 * p.y)))
            let blotch = noise.sample(p.x * 60, p.y * 60 + p.z * 40)
            return SIMD3(0.78, 0.74, 0.70) * (0.85 + 0.1 * rib + 0.1 * blotch)
        case .torso:
            let stripe = Float(FastTrig.sin(Double(p.y * 160))) > 0.2 ? SIMD3<Float>(0.25, 0.35, 0.6) : SIMD3<Float>(0.85, 0.85, 0.8)
            let weave = noise.sample(p.x * 700 + 17.5, p.y * 700)
            return stripe * (0.85 + 0.2 * weave)
        case .wall:
            let pattern = 0.5 + 0.5 * Float(FastTrig.sin(Double(p.x * 55))) * Float(FastTrig.sin(Double(p.y * 55)))
            let grain = noise.sample(p.x * 300 + 101.3, p.y * 300 + 50.7)
            let stain = noise.sample(p.y * 6 + 33.1, p.x * 6 + 7.9)
            return SIMD3(0.82, 0.78, 0.62) * (0.7 + 0.15 * pattern + 0.1 * grain + 0.15 * stain)
        case .none:
            return SIMD3(repeating: 0.1)
        }
    }
}

/// Ray casting for one camera position, with everything that depends only on the origin hoisted.
struct FrameTracer {
    private let origin: SIMD3<Float>
    private let head: EllipsoidTarget
    private let torso: EllipsoidTarget
    private let wallNormal: SIMD3<Float>
    private let wallDistance: Float
    private let light: SIMD3<Float>

    init(layout: SceneLayout, origin: SIMD3<Float>) {
        self.origin = origin
        head = EllipsoidTarget(centre: layout.headCentre, radii: layout.headRadii, origin: origin)
        torso = EllipsoidTarget(centre: layout.torsoCentre, radii: layout.torsoRadii, origin: origin)
        wallNormal = layout.wallNormal
        wallDistance = layout.wallOffset - (layout.wallNormal * origin).sum()
        light = layout.light
    }

    /// The nearest surface along `ray`.
    @inline(__always)
    func trace(_ ray: SIMD3<Float>) -> SurfaceHit {
        var best = SurfaceHit(surface: .none, depth: .infinity, facing: 0, lambert: 0, point: .zero)
        var normal = SIMD3<Float>.zero
        if let t = head.hit(ray) {
            best.surface = .head; best.depth = t; normal = head.normal(at: ray * t)
        }
        if let t = torso.hit(ray), t < best.depth {
            best.surface = .torso; best.depth = t; normal = torso.normal(at: ray * t)
        }
        let denominator = (wallNormal * ray).sum()
        if denominator > 1e-6 {
            let t = wallDistance / denominator
            if t > 0 && t < best.depth { best.surface = .wall; best.depth = t; normal = wallNormal }
        }
        guard best.surface != .none else { return best }
        best.point = origin + ray * best.depth
        let scale = 1 / ((normal * normal).sum() * (ray * ray).sum()).squareRoot()
        let facing = -(normal * ray).sum() * scale
        best.facing = abs(facing)
        let lit = (normal * light).sum() * scale * (ray * ray).sum().squareRoot()
        best.lambert = max(0, facing < 0 ? -lit : lit)
        return best
    }
}

/// An axis-aligned ellipsoid seen from a fixed origin, solved in unit-sphere coordinates.
struct EllipsoidTarget {
    private let inverseRadii: SIMD3<Float>
    private let scaledOrigin: SIMD3<Float>
    private let originTerm: Float

    init(centre: SIMD3<Float>, radii: SIMD3<Float>, origin: SIMD3<Float>) {
        inverseRadii = 1 / radii
        scaledOrigin = (origin - centre) * inverseRadii
        originTerm = (scaledOrigin * scaledOrigin).sum() - 1
    }

    /// Ray parameter of the first hit in front of the origin, if any.
    @inline(__always)
    func hit(_ ray: SIMD3<Float>) -> Float? {
        let d = ray * inverseRadii
        let a = (d * d).sum(), b = (scaledOrigin * d).sum()
        let discriminant = b * b - a * originTerm
        guard discriminant >= 0 else { return nil }
        let t = (-b - discriminant.squareRoot()) / a
        return t > 0 ? t : nil
    }

    /// Unnormalised outward normal at `offset` from the origin along the ray.
    @inline(__always)
    func normal(at offset: SIMD3<Float>) -> SIMD3<Float> {
        (scaledOrigin + offset * inverseRadii) * inverseRadii
    }
}

/// Smooth 2D value noise in [0, 1] from a small seeded lattice that tiles every 256 cells.
///
/// A table rather than hashing per sample: it is sampled several times per pixel.
struct ValueNoise: Sendable {
    private static let size = 256
    private let lattice: [Float]

    init(seed: UInt64) {
        var rng = Xoshiro256(seed: seed)
        lattice = (0..<(Self.size * Self.size)).map { _ in rng.unitFloat() }
    }

    @inline(__always)
    func sample(_ x: Float, _ y: Float) -> Float {
        let ix = FastTrig.floor(Double(x)), iy = FastTrig.floor(Double(y))
        let tx = x - Float(ix), ty = y - Float(iy)
        let sx = tx * tx * (3 - 2 * tx), sy = ty * ty * (3 - 2 * ty)
        let m = Self.size - 1
        let x0 = ix & m, x1 = (ix &+ 1) & m, row0 = (iy & m) &* Self.size, row1 = ((iy &+ 1) & m) &* Self.size
        return lattice.withUnsafeBufferPointer { v in
            let top = v[row0 + x0] + (v[row0 + x1] - v[row0 + x0]) * sx
            let bottom = v[row1 + x0] + (v[row1 + x1] - v[row1 + x0]) * sx
            return top + (bottom - top) * sy
        }
    }
}

extension SIMD3 where Scalar == Float {
    /// The vector scaled to unit length.
    @inline(__always)
    var normalizedVector: SIMD3<Float> { self / (self * self).sum().squareRoot() }
}
