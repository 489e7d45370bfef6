/// A 3D rotation stored as the three columns of its matrix, for fast per-point use.
public struct Rotation3: Sendable, Hashable {
    /// Images of the x, y and z axes.
    public var columns: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>)

    /// A rotation from its matrix columns (which must be orthonormal, right-handed).
    public init(columns: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>)) {
        self.columns = columns
    }

    /// No rotation.
    public static let identity = Rotation3(columns: (SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)))

    /// Rotation by `angle` radians about the unit vector `axis` (right-hand rule).
    public init(axis: SIMD3<Double>, angle: Double) {
        let k = axis / (axis * axis).sum().squareRoot()
        let c = cos(angle), s = sin(angle), t = 1 - c
        columns = (
            SIMD3(t * k.x * k.x + c, t * k.x * k.y + s * k.z, t * k.x * k.z - s * k.y),
            SIMD3(t * k.x * k.y - s * k.z, t * k.y * k.y + c, t * k.y * k.z + s * k.x),
            SIMD3(t * k.x * k.z + s * k.y, t * k.y * k.z - s * k.x, t * k.z * k.z + c)
        )
    }

    /// Rotation by yaw about z, then pitch about x, then roll about y (all in the fixed frame):
    /// `R = Rz(yaw) · Rx(pitch) · Ry(roll)`.
    public init(yaw: Double, pitch: Double, roll: Double) {
        self =
            Rotation3(axis: SIMD3(0, 0, 1), angle: yaw) * Rotation3(axis: SIMD3(1, 0, 0), angle: pitch)
            * Rotation3(axis: SIMD3(0, 1, 0), angle: roll)
    }

    /// Rotates a vector.
    @inlinable
    public func apply(_ v: SIMD3<Double>) -> SIMD3<Double> {
        columns.0 * v.x + columns.1 * v.y + columns.2 * v.z
    }

    /// The inverse rotation (the transpose).
    public var inverse: Rotation3 {
        let (a, b, c) = columns
        return Rotation3(columns: (SIMD3(a.x, b.x, c.x), SIMD3(a.y, b.y, c.y), SIMD3(a.z, b.z, c.z)))
    }

    /// Composition: `(l * r).apply(v) == l.apply(r.apply(v))`.
    public static func * (l: Rotation3, r: Rotation3) -> Rotation3 {
        Rotation3(columns: (l.apply(r.columns.0), l.apply(r.columns.1), l.apply(r.columns.2)))
    }

    /// Angle of the rotation in radians, 0...π.
    public var angle: Double {
        let trace = columns.0.x + columns.1.y + columns.2.z
        return acos(min(1, max(-1, (trace - 1) / 2)))
    }

    /// The unit quaternion of the rotation, with w ≥ 0 (Shepperd's method: the largest of
    /// w, x, y, z is found first, so the result stays accurate for every angle).
    public var quaternion: (w: Double, x: Double, y: Double, z: Double) {
        let (a, b, c) = columns
        // Matrix entries m_rowcol: column vectors a, b, c.
        let (m00, m10, m20, m01, m11, m21, m02, m12, m22) = (a.x, a.y, a.z, b.x, b.y, b.z, c.x, c.y, c.z)
        let trace = m00 + m11 + m22
        var q: (w: Double, x: Double, y: Double, z: Double)
        if trace > 0 {
            let s = (trace + 1).squareRoot() * 2
            q = (0.25 * s, (m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s)
        } else if m00 > m11, m00 > m22 {
            let s = (1 + m00 - m11 - m22).squareRoot() * 2
            q = ((m21 - m12) / s, 0.25 * s, (m01 + m10) / s, (m02 + m20) / s)
        } else if m11 > m22 {
            let s = (1 + m11 - m00 - m22).squareRoot() * 2
            q = ((m02 - m20) / s, (m01 + m10) / s, 0.25 * s, (m12 + m21) / s)
        } else {
            let s = (1 + m22 - m00 - m11).squareRoot() * 2
            q = ((m10 - m01) / s, (m02 + m20) / s, (m12 + m21) / s, 0.25 * s)
        }
        let norm = (q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z).squareRoot()
        let sign = q.w < 0 ? -1.0 : 1.0
        return (sign * q.w / norm, sign * q.x / norm, sign * q.y / norm, sign * q.z / norm)
    }

    /// Row-major 3x3 entries.
    public var rowMajor: [Double] {
        let (a, b, c) = columns
        return [a.x, b.x, c.x, a.y, b.y, c.y, a.z, b.z, c.z]
    }

    public static func == (l: Rotation3, r: Rotation3) -> Bool {
        l.columns.0 == r.columns.0 && l.columns.1 == r.columns.1 && l.columns.2 == r.columns.2
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(columns.0)
        hasher.combine(columns.1)
        hasher.combine(columns.2)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
