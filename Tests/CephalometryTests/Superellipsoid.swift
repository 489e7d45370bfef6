import Foundation
import Geometry

@testable import Cephalometry

/// A superellipsoidal head whose every measure has an independent numerical value: slices
/// are superellipses |X/a|ⁿ + |Y/b|ⁿ ≤ s(z)ⁿ, sheared sideways (x = X + shear·Y), centred
/// `forward` in front of the ear line; the vertical profile is s = (1 − |u|ᵐ)^(1/m) with
/// u = (z − equator) / height.
///
/// The expected values integrate strips, march rays and sweep angles on the closed form; none
/// of them slices a mesh or clips a polygon, so a mistake in the product's slicing cannot hide
/// on both sides of a comparison.
struct Superellipsoid {
    var a = 0.058
    var b = 0.071
    var n = 2.0
    var m = 2.0
    var shear = 0.0
    var forward = 0.006
    var equator = 0.025
    var height = 0.085
    /// How much longer (front to back) the slices grow per head height above the equator:
    /// with it the head is longest higher up than it is widest, so the conventions' slices part.
    var lengthGrowth = 0.0

    /// Landmarks on the reference plane z = 0 with the frame of this description.
    var landmarks: HeadLandmarks {
        HeadLandmarks(
            nasion: SIMD3(0, 0.08, 0), noseTip: SIMD3(0, 0.095, -0.02),
            leftTragion: SIMD3(-0.062, 0, 0), rightTragion: SIMD3(0.062, 0, 0))
    }

    /// The slice scale at height z (0 outside the head).
    func scale(_ z: Double) -> Double {
        let u = abs(z - equator) / height
        return u >= 1 ? 0 : pow(1 - pow(u, m), 1 / m)
    }

    /// The half-length's scale at height z.
    func lengthScale(_ z: Double) -> Double { scale(z) * (1 + lengthGrowth * (z - equator) / height) }

    /// Whether (x, y) lies inside the slice at height z.
    func inside(_ p: SIMD2<Double>, z: Double) -> Bool {
        let s = scale(z)
        guard s > 0 else { return false }
        let y = p.y - forward, x = p.x - shear * y
        return pow(abs(x / (a * s)), n) + pow(abs(y / (b * lengthScale(z))), n) < 1
    }

    /// Distance from `origin` along unit `u` to the slice's boundary, by bisection.
    func reach(from origin: SIMD2<Double>, along u: SIMD2<Double>, z: Double) -> Double {
        var low = 0.0, high = 0.3
        for _ in 0..<64 {
            let t = (low + high) / 2
            if inside(origin + u * t, z: z) { low = t } else { high = t }
        }
        return (low + high) / 2
    }

    /// Half the chord of the unsheared slice at Y (metres from the slice centre, forward).
    func halfChord(_ y: Double, z: Double) -> Double {
        let s = scale(z)
        let v = abs(y) / (b * lengthScale(z))
        return v >= 1 ? 0 : a * s * pow(1 - pow(v, n), 1 / n)
    }

    /// Quadrant areas at height z by integrating horizontal strips (front-left, front-right,
    /// back-left, back-right; left is x < 0).
    func quadrantAreas(z: Double, strips: Int = 4000) -> SIMD4<Double> {
        let s = scale(z)
        guard s > 0 else { return .zero }
        var areas = SIMD4<Double>.zero
        let dy = 2 * b * lengthScale(z) / Double(strips)
        for k in 0..<strips {
            let y = -b * lengthScale(z) + (Double(k) + 0.5) * dy
            let w = halfChord(y, z: z), mid = shear * y
            let right = max(0, min(2 * w, w + mid)), left = 2 * w - right
            let front = y + forward >= 0
            areas += front ? SIMD4(left, right, 0, 0) * dy : SIMD4(0, 0, left, right) * dy
        }
        return areas
    }

    /// Quadrant volumes above z = 0, cm³ (midpoint rule over many thin layers).
    func quadrantVolumes(layers: Int = 400) -> SIMD4<Double> {
        let top = equator + height
        let dz = top / Double(layers)
        var total = SIMD4<Double>.zero
        for k in 0..<layers { total += quadrantAreas(z: (Double(k) + 0.5) * dz, strips: 1500) * dz }
        return total * 1e6
    }

    /// A dense boundary of the slice at height z.
    func boundary(z: Double, samples: Int = 20_000, phase: Double = 0) -> [SIMD2<Double>] {
        let s = scale(z)
        return (0..<samples).map { i in
            let t = (Double(i) + phase) / Double(samples) * 2 * Double.pi
            let x = a * s * copysign(pow(abs(cos(t)), 2 / n), cos(t))
            let y = b * lengthScale(z) * copysign(pow(abs(sin(t)), 2 / n), sin(t))
            return SIMD2(x + shear * y, y + forward)
        }
    }

    /// The surface as rings of constant elevation plus two poles; a `phase` (in samples)
    /// other than 0 or ½ keeps the tessellation from being its own mirror image.
    func mesh(around: Int = 360, rings: Int = 120, phase: Double = 0) -> TriangleMesh {
        var mesh = TriangleMesh()
        for k in 1..<rings {
            let psi = -Double.pi / 2 + Double(k) * Double.pi / Double(rings)
            let z = equator + height * sin(psi)
            for p in boundary(z: z, samples: around, phase: phase) { mesh.vertices.append(SIMD3(p.x, p.y, z)) }
        }
        let bottom = Int32(mesh.vertices.count)
        mesh.vertices.append(SIMD3(0, forward, equator - height))
        let top = Int32(mesh.vertices.count)
        mesh.vertices.append(SIMD3(0, forward, equator + height))
        func v(_ ring: Int, _ i: Int) -> Int32 { Int32(ring * around + i % around) }
        for ring in 0..<(rings - 2) {
            for i in 0..<around {
                mesh.faces.append(SIMD3(v(ring, i), v(ring, i + 1), v(ring + 1, i + 1)))
                mesh.faces.append(SIMD3(v(ring, i), v(ring + 1, i + 1), v(ring + 1, i)))
            }
        }
        for i in 0..<around {
            mesh.faces.append(SIMD3(bottom, v(0, i + 1), v(0, i)))
            mesh.faces.append(SIMD3(top, v(rings - 2, i), v(rings - 2, i + 1)))
        }
        return mesh
    }

    /// Σ |r_left(θ) − r_right(θ)| every 15° from straight ahead, from the midline point level
    /// with the slice centre, mm.
    func radialSymmetryIndex(z: Double) -> Double {
        let centre = SIMD2(0, forward)
        var sum = 0.0
        for k in 1..<12 {
            let t = Double(k) * 15 * Double.pi / 180
            sum += abs(reach(from: centre, along: SIMD2(-sin(t), cos(t)), z: z) - reach(from: centre, along: SIMD2(sin(t), cos(t)), z: z))
        }
        return sum * 1000
    }

    /// The longest chord through the origin and its angle from straight ahead (degrees,
    /// positive toward the left), by a 0.01° sweep.
    func longestChord(z: Double) -> (mm: Double, degrees: Double) {
        var best = (mm: 0.0, degrees: 0.0)
        for k in 0..<18_000 {
            let degrees = -90 + Double(k) * 0.01
            let t = degrees * Double.pi / 180
            let u = SIMD2(-sin(t), cos(t))
            let chord = (reach(from: .zero, along: u, z: z) + reach(from: .zero, along: -u, z: z)) * 1000
            if chord > best.mm { best = (chord, degrees) }
        }
        return best
    }

    /// The forehead angle at the slice's most forward point between the outline 25 mm to
    /// either side, degrees.
    func foreheadAngle(z: Double) -> Double {
        let points = boundary(z: z, samples: 200_000)
        guard let apex = points.max(by: { $0.y < $1.y }) else { return 0 }
        var angle = 180.0
        for side in [-1.0, 1.0] {
            // Bisect the vertical line between the slice centre (inside) and above the apex.
            let x = apex.x + side * 0.025
            var low = forward, high = apex.y + 0.01
            for _ in 0..<64 {
                let y = (low + high) / 2
                if inside(SIMD2(x, y), z: z) { low = y } else { high = y }
            }
            angle -= atan2(apex.y - (low + high) / 2, 0.025) * 180 / Double.pi
        }
        return angle
    }
}
