import Foundation

/// The face of a simulated head: the nasion's hollow between forehead and nose, and the nose.
///
/// Both are reliefs on the smooth head, in the head frame (x right, y forward, z up, metres).
/// The hollow is shaped so that the face's midline profile is deepest exactly at the nasion on
/// the reference plane, z = 0: it cancels the face's slope there and sinks the skin by
/// `nasionDepth`. It stays within 14 mm of the reference plane and 20 mm of the midline, so
/// the outlines a clinician measures higher up are untouched.
enum FaceRelief {
    /// How deep the hollow at the nasion is, metres.
    static let nasionDepth = 0.003
    /// Reach of the hollow up and down, and of the slope correction, metres.
    static let hollowHeight = 0.009
    static let slopeHeight = 0.014
    /// Reach of the hollow sideways, metres.
    static let hollowWidth = 0.020

    /// Forward displacement of the face at (x, z), for a face whose midline profile rises
    /// `slope` metres forward per metre up at the reference plane.
    static func hollow(x: Double, z: Double, slope: Double) -> Double {
        let across = bump(x / hollowWidth)
        guard across > 0 else { return 0 }
        return across * (-slope * z * bump(z / slopeHeight) - nasionDepth * bump(z / hollowHeight))
    }

    /// (1 − t²)², zero outside |t| < 1: flat at its top, so the hollow's deepest point stays put.
    static func bump(_ t: Double) -> Double {
        let s = 1 - t * t
        return s > 0 ? s * s : 0
    }

    /// The nose's root, tip height and the bottom of its columella below the nasion, metres.
    static let noseRoot = -0.0025
    static let noseTipHeight = -0.015
    static let columella = 0.0045
    /// How far the nose's tip stands off the face, metres.
    static let noseProtrusion = 0.0095

    /// Height of the nose above the face at (x, z), metres: a ridge from the root to the tip
    /// that widens downward, the columella below the tip and the two alae beside it.
    static func nose(x: Double, z: Double) -> Double {
        var ridge = 0.0
        if z <= noseRoot, z >= noseTipHeight - columella {
            let along: Double
            if z >= noseTipHeight {
                along = pow((noseRoot - z) / (noseRoot - noseTipHeight), 1.2)
            } else {
                let t = (noseTipHeight - z) / columella
                along = max(0, 1 - t * t).squareRoot()
            }
            let progress = min(1, (noseRoot - z) / (noseRoot - noseTipHeight))
            let halfWidth = 0.004 + 0.0045 * progress
            let t = x / halfWidth
            ridge = t * t < 1 ? noseProtrusion * along * pow(1 - t * t, 0.5) : 0
        }
        var ala = 0.0
        for side in [-1.0, 1.0] {
            let dx = (x - side * 0.0085) / 0.004, dz = (z + 0.0165) / 0.0035
            let e = dx * dx + dz * dz
            if e < 1 { ala = max(ala, 0.0045 * (1 - e).squareRoot()) }
        }
        return max(ridge, ala)
    }

    /// Where the nose's relief may be non-zero: x and z ranges, metres.
    static let noseXRange = -0.0135...0.0135
    static let noseZRange = (noseTipHeight - columella - 0.0005)...(noseRoot + 0.0005)
}
