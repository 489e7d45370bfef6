import Foundation
import Geometry

/// A face that moves while the skull does not: an infant that cries now and then, its jaw
/// opening by up to `maximumAngle` (about 15 mm at the chin) a little over once a second
/// during each spell, and babbling a little between them.
///
/// The jaw turns about an axis across the head through its hinges, just in front of and below
/// the tragions; the lower face follows it fully below the mouth and not at all above the
/// upper lip, so the skin between stretches open as a mouth does. Nothing above the mouth
/// moves: the nasion, the nose, the tragions and the vault stay where the truth has them.
struct JawMotion: Sendable {
    /// The widest the jaw opens while crying, radians.
    static let maximumAngle = 0.24
    /// The axis the jaw turns about: across the head (x) through this point, head frame.
    static let hinge = SIMD3<Double>(0, 0.005, -0.02)
    /// The mouth's line: the upper lip ends here and the lower face follows the jaw fully from
    /// `lowerLip` down, metres in z (head frame).
    static let upperLip = -0.028
    static let lowerLip = -0.034
    /// Half the mouth's width, metres.
    static let halfWidth = 0.016

    private let spells: Episodes
    private let babble: SmoothNoise

    init(duration: Double, seed: UInt64) {
        var random = Xoshiro256(seed: seed, stream: 0x6A61_77)
        spells = Episodes(count: max(1, Int(duration / 10)), duration: 3, total: duration, ramp: 0.5, rng: &random)
        babble = SmoothNoise(rng: &random, lowest: 0.5, highest: 1.5)
    }

    /// How far the jaw is open at `t`, radians (0 closed).
    func angle(at t: Double) -> Double {
        let crying = spells.strength(at: t).value
        let cry = crying * Self.maximumAngle * (0.6 + 0.4 * sin(2 * Double.pi * 1.2 * t))
        let talk = (1 - crying) * 0.03 * max(0, babble.value(at: t))
        return max(0, cry + talk)
    }

    /// How much of the jaw's turn a point of the face at `p` (head frame) follows: all of it
    /// below the mouth, none above, nothing behind the cheeks or near the ears.
    static func share(at p: SIMD3<Double>) -> Double {
        let down = smooth((upperLip - p.z) / (upperLip - lowerLip))
        let front = smooth(p.y / 0.03)
        let inside = smooth((0.06 - abs(p.x)) / 0.015)
        return down * front * inside
    }

    /// The jaw's turn at `angle` for a point that follows `share` of it.
    static func moved(_ p: SIMD3<Double>, share: Double, angle: Double) -> SIMD3<Double> {
        guard share > 0, angle > 0 else { return p }
        let a = -angle * share
        let r = p - hinge
        let (s, c) = (sin(a), cos(a))
        // A turn about x that takes the chin (forward, below the hinge) back and down.
        return hinge + SIMD3(r.x, c * r.y - s * r.z, s * r.y + c * r.z)
    }

    /// Whether `p` (head frame, on the moved face) lies inside the open mouth.
    static func isInsideMouth(_ p: SIMD3<Double>, angle: Double) -> Bool {
        guard angle > 0.02, p.y > 0.02, abs(p.x) < halfWidth else { return false }
        let drop = angle * 0.06
        let across = p.x / halfWidth
        return p.z < upperLip - 0.001 && p.z > lowerLip - drop * (1 - across * across)
    }

    /// 0 below 0, 1 above 1, smooth between.
    private static func smooth(_ t: Double) -> Double {
        let u = min(1, max(0, t))
        return u * u * (3 - 2 * u)
    }
}
