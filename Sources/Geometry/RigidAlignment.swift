/// The best rigid or similarity transform between corresponding point sets (Kabsch/Umeyama),
/// solved with Horn's unit quaternion: the top eigenvector of a symmetric 4x4 matrix, which
/// can never return a reflection.
public enum RigidAlignment {
    /// A fitted similarity: `target ≈ scale · rotation(source) + translation`.
    public struct Fit: Sendable, Hashable {
        /// Rotation and translation (the translation already includes the scale).
        public var transform: RigidTransform
        /// Uniform scale; exactly 1 for a rigid fit.
        public var scale: Double
        /// Root mean square of the weighted residuals, metres.
        public var rms: Double

        /// Maps a point of the source frame into the target frame.
        public func apply(_ p: SIMD3<Double>) -> SIMD3<Double> {
            transform.rotation.apply(p) * scale + transform.translation
        }
    }

    /// Fits `target[i] ≈ T(source[i])` minimising the weighted squared residuals; `weights`
    /// defaults to 1 each. Throws when fewer than three points carry weight or they are
    /// collinear.
    public static func fit(
        from source: [SIMD3<Double>], to target: [SIMD3<Double>], weights: [Double]? = nil, withScale: Bool = false
    ) throws(GeometryError) -> Fit {
        guard source.count == target.count, source.count >= 3 else {
            throw .notEnoughPoints(needed: 3, got: min(source.count, target.count))
        }
        var total = 0.0
        var cs = SIMD3<Double>.zero, ct = SIMD3<Double>.zero
        for i in source.indices {
            let w = weights?[i] ?? 1
            total += w
            cs += w * source[i]
            ct += w * target[i]
        }
        guard total > 0 else { throw .notEnoughPoints(needed: 3, got: 0) }
        cs /= total
        ct /= total
        // Cross-covariance S[a][b] = Σ w (s_a)(t_b) of the centred points.
        var s = [Double](repeating: 0, count: 9)
        var sourceSpread = 0.0
        for i in source.indices {
            let w = weights?[i] ?? 1
            let a = source[i] - cs, b = target[i] - ct
            sourceSpread += w * dot(a, a)
            for r in 0..<3 { for c in 0..<3 { s[r * 3 + c] += w * a[r] * b[c] } }
        }
        let (xx, xy, xz, yx, yy, yz, zx, zy, zz) = (s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8])
        let n: [Double] = [
            xx + yy + zz, yz - zy, zx - xz, xy - yx,
            yz - zy, xx - yy - zz, xy + yx, zx + xz,
            zx - xz, xy + yx, -xx + yy - zz, yz + zy,
            xy - yx, zx + xz, yz + zy, -xx - yy + zz,
        ]
        let eigen = SymmetricEigen.decompose(n, size: 4)
        // A planar or collinear set leaves the top two eigenvalues (nearly) equal: the
        // rotation about the degenerate axis is then undetermined.
        let spread = max(abs(eigen.values[3]), 1e-300)
        guard eigen.values[3] - eigen.values[2] > 1e-12 * spread else {
            throw .singular
        }
        let q = eigen.vectors[3]
        let rotation = rotationFromQuaternion(w: q[0], x: q[1], y: q[2], z: q[3])
        var scale = 1.0
        if withScale {
            guard sourceSpread > 0 else { throw .singular }
            var projected = 0.0
            for i in source.indices {
                let w = weights?[i] ?? 1
                projected += w * dot(rotation.apply(source[i] - cs), target[i] - ct)
            }
            scale = projected / sourceSpread
        }
        let transform = RigidTransform(rotation: rotation, translation: ct - scale * rotation.apply(cs))
        var fit = Fit(transform: transform, scale: scale, rms: 0)
        var squared = 0.0
        for i in source.indices {
            let d = fit.apply(source[i]) - target[i]
            squared += (weights?[i] ?? 1) * dot(d, d)
        }
        fit.rms = (squared / total).squareRoot()
        return fit
    }

    /// The rotation of a (not necessarily normalised) quaternion.
    public static func rotationFromQuaternion(w: Double, x: Double, y: Double, z: Double) -> Rotation3 {
        let norm = (w * w + x * x + y * y + z * z).squareRoot()
        let (w, x, y, z) = (w / norm, x / norm, y / norm, z / norm)
        return Rotation3(
            columns: (
                SIMD3(1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)),
                SIMD3(2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x)),
                SIMD3(2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y))
            ))
    }
}
