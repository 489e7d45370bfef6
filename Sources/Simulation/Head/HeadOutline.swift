import Foundation

/// The head's horizontal outline at its widest height, as a radius around the outline centre.
///
/// An egg-shaped ellipse, flattened at the back on one side and bossed at the front on the
/// same side, as in positional plagiocephaly (the "parallelogram" head). Angles are measured
/// counter-clockwise from the infant's right (+x), so 90° is forward and 180° is left.
public struct HeadOutline: Sendable, Equatable {
    /// Semi-axis toward the sides, metres.
    public var halfWidth: Double
    /// Semi-axis front to back, metres.
    public var halfLength: Double
    /// Flattening strength (0 = none).
    public var flattening: Double
    /// The flattened side.
    public var flatSide: FlatSide
    /// Egg shape factor.
    public var eggness: Double
    /// Outline centre's distance in front of the ear-to-ear line, metres.
    public var centreOffset: Double
    /// Outline centre's distance to the right of the tragion midpoint, metres: a flattened
    /// head is not symmetric, so its centre is shifted to keep the origin between the ears.
    public var lateralOffset = 0.0

    /// Angular half-width of the flattened and bossed patches.
    static let patchHalfWidth = 55.0 * Double.pi / 180
    /// Frontal bossing relative to posterior flattening.
    static let bossingRatio = 0.35

    /// Radius at angle `phi` around the outline centre.
    public func radius(at phi: Double) -> Double {
        let (c, s) = (cos(phi), sin(phi))
        let ellipse = halfWidth * halfLength / ((halfLength * c) * (halfLength * c) + (halfWidth * s) * (halfWidth * s)).squareRoot()
        let flat = flatSide == .left ? 225.0 : 315.0
        let boss = flatSide == .left ? 135.0 : 45.0
        return ellipse * (1 - eggness * s) * (1 - flattening * Self.bump(phi, at: flat))
            * (1 + Self.bossingRatio * flattening * Self.bump(phi, at: boss))
    }

    /// A smooth patch: 1 at `centre` degrees, falling to 0 at the patch half-width.
    static func bump(_ phi: Double, at centre: Double) -> Double {
        var d = phi - centre * Double.pi / 180
        d = atan2(sin(d), cos(d))
        guard abs(d) < patchHalfWidth else { return 0 }
        let c = cos(d / patchHalfWidth * Double.pi / 2)
        return c * c
    }

    /// The outline centre relative to the ear-line centre.
    public var centre: SIMD2<Double> { SIMD2(lateralOffset, centreOffset) }

    /// Distance from the ear-line centre to the outline scaled by `scale`, along `direction`
    /// (an angle as above); exact to floating-point precision by bisection.
    public func reach(along direction: Double, scale: Double = 1) -> Double {
        let u = SIMD2(cos(direction), sin(direction))
        var low = 0.0, high = 0.5
        for _ in 0..<80 {
            let t = (low + high) / 2
            let p = u * t - centre
            let inside = (p * p).sum().squareRoot() < scale * radius(at: atan2(p.y, p.x))
            if inside { low = t } else { high = t }
        }
        return (low + high) / 2
    }

    /// The outline as a dense polygon around the ear-line centre (metres).
    public func polygon(samples: Int = 20_000, scale: Double = 1) -> [SIMD2<Double>] {
        (0..<samples).map { i in
            let phi = Double(i) / Double(samples) * 2 * Double.pi
            return SIMD2(cos(phi), sin(phi)) * (scale * radius(at: phi)) + centre
        }
    }
}
