import Foundation
import Geometry

/// A mesh seen from one point inside it: for each direction on a grid of outline angle and
/// elevation, the distance to the farthest surface the ray from that point meets (the outer
/// skin, not the inside of the mouth or an ear's fold).
///
/// Each triangle is tested only against the grid directions inside its box of angles, so
/// the cost grows with the mesh and the grid, not with their product.
struct RadialSurface: Sendable {
    /// Grid step, radians.
    let step: Double
    let columns: Int, rows: Int
    /// Distances, metres, row by row from the chin's pole; NaN where no ray met the mesh.
    let radius: [Double]

    init(_ mesh: TriangleMesh, stepDegrees: Double = 0.5) {
        step = stepDegrees * Double.pi / 180
        columns = Int((360 / stepDegrees).rounded())
        rows = Int((180 / stepDegrees).rounded()) + 1
        var radius = [Double](repeating: .nan, count: columns * rows)
        for f in mesh.faces.indices {
            let (a, b, c) = mesh.corners(of: f)
            Self.cast(a, b, c, step: step, columns: columns, rows: rows, into: &radius)
        }
        self.radius = radius
    }

    /// Tests triangle abc against the directions within its box of angles.
    private static func cast(
        _ a: SIMD3<Double>, _ b: SIMD3<Double>, _ c: SIMD3<Double>, step: Double, columns: Int, rows: Int, into radius: inout [Double]
    ) {
        let corners = [a, b, c]
        guard corners.allSatisfy({ length($0) > 1e-9 && $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }) else { return }
        let psis = corners.map { asin(min(1, max(-1, $0.z / length($0)))) }
        var phis = corners.map { atan2($0.y, $0.x) }
        // A triangle across the seam at ±π is unwrapped to one side.
        if (phis.max() ?? 0) - (phis.min() ?? 0) > Double.pi { phis = phis.map { $0 < 0 ? $0 + 2 * Double.pi : $0 } }
        var psiLow = psis.min() ?? 0, psiHigh = psis.max() ?? 0
        var phiLow = phis.min() ?? 0, phiHigh = phis.max() ?? 0
        // A triangle around a pole covers every outline angle there.
        let normal = cross(b - a, c - a)
        let poleUp = SIMD3<Double>(0, 0, 1)
        for pole in [poleUp, -poleUp] where Self.ray(pole, meets: a, b, c, normal: normal) != nil {
            if pole.z > 0 { psiHigh = Double.pi / 2 } else { psiLow = -Double.pi / 2 }
            phiLow = -Double.pi
            phiHigh = Double.pi
        }
        let margin = step
        let rowLow = max(0, Int(((psiLow - margin + Double.pi / 2) / step).rounded(.down)))
        let rowHigh = min(rows - 1, Int(((psiHigh + margin + Double.pi / 2) / step).rounded(.up)))
        let columnLow = Int(((phiLow - margin) / step).rounded(.down))
        let columnHigh = min(columnLow + columns - 1, Int(((phiHigh + margin) / step).rounded(.up)))
        guard rowLow <= rowHigh, columnLow <= columnHigh else { return }
        for row in rowLow...rowHigh {
            let psi = Double(row) * step - Double.pi / 2
            for column in columnLow...columnHigh {
                let phi = Double(column) * step
                let direction = SIMD3(cos(psi) * cos(phi), cos(psi) * sin(phi), sin(psi))
                guard let t = Self.ray(direction, meets: a, b, c, normal: normal) else { continue }
                let index = row * columns + ((column % columns) + columns) % columns
                if !(radius[index] >= t) { radius[index] = t }
            }
        }
    }

    /// Where the ray from the origin along `direction` meets triangle abc (distance), if it does.
    private static func ray(
        _ direction: SIMD3<Double>, meets a: SIMD3<Double>, _ b: SIMD3<Double>, _ c: SIMD3<Double>, normal: SIMD3<Double>
    ) -> Double? {
        let denominator = dot(normal, direction)
        guard abs(denominator) > 1e-15 else { return nil }
        let t = dot(normal, a) / denominator
        guard t > 0, t.isFinite else { return nil }
        let p = direction * t
        // Inside when p lies on the inner side of all three edges; a ray through an edge or a
        // corner shared by two triangles counts for both, so rounding cannot slip it between.
        let s0 = dot(cross(b - a, p - a), normal), s1 = dot(cross(c - b, p - b), normal), s2 = dot(cross(a - c, p - c), normal)
        let tolerance = 1e-9 * dot(normal, normal)
        let inside = (s0 >= -tolerance && s1 >= -tolerance && s2 >= -tolerance) || (s0 <= tolerance && s1 <= tolerance && s2 <= tolerance)
        return inside ? t : nil
    }

    /// The distance toward (`phi`, `psi`), bilinear between the grid's directions; nil where
    /// a neighbouring direction met nothing.
    func distance(phi: Double, psi: Double) -> Double? {
        // Any angle is read modulo a turn; one past a million radians is no direction anyone asks for.
        guard phi.isFinite, psi.isFinite, abs(phi) < 1e6 else { return nil }
        let u = phi / step, v = (min(Double.pi / 2, max(-Double.pi / 2, psi)) + Double.pi / 2) / step
        let c0 = Int(u.rounded(.down)), r0 = min(rows - 2, Int(v.rounded(.down)))
        let fu = u - Double(c0), fv = v - Double(r0)
        func at(_ row: Int, _ column: Int) -> Double { radius[row * columns + ((column % columns) + columns) % columns] }
        let values = [at(r0, c0), at(r0, c0 + 1), at(r0 + 1, c0), at(r0 + 1, c0 + 1)]
        guard values.allSatisfy(\.isFinite) else { return nil }
        let low = values[0] * (1 - fu) + values[1] * fu, high = values[2] * (1 - fu) + values[3] * fu
        return low * (1 - fv) + high * fv
    }
}
