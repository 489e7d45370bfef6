import Foundation
import Geometry

/// An infant scanned without any cap: its own hair covers the vault.
///
/// What the depth camera meets is the hair's outer surface, not the scalp: the hair stands off
/// the skull by between a third of `thicknessMillimetres` and all of it, unevenly (a smooth,
/// seeded field), from a hairline that runs high on the forehead, above the ears and down to
/// the nape. TrueDepth measures by a projected infrared dot pattern; dark hair swallows it, so
/// depth drops out over dark hair in patches that stay with the head, and a fuzzy surface
/// reads noisier than skin everywhere. The truth keeps the skull, as under a cap.
public struct BareHair: Sendable, Equatable, Codable {
    /// How light the hair is, which decides its colour and how much infrared comes back.
    public enum Shade: String, Sendable, Codable, CaseIterable {
        case light, dark
    }

    public var shade: Shade
    /// Most the hair stands off the scalp, millimetres (0.5 to 15; an infant's 1 to 6).
    public var thicknessMillimetres: Double

    public init(shade: Shade, thicknessMillimetres: Double) {
        self.shade = shade
        self.thicknessMillimetres = thicknessMillimetres
    }

    /// Whether the hair can be simulated: a thickness of 0.5 to 15 mm.
    public var isValid: Bool { (0.5...15).contains(thicknessMillimetres) }

    /// The least stand-off as a share of the most: a head of hair never lies flat on the skin.
    static let thinnestShare = 1.0 / 3

    /// The field of the hair's stand-off for a scan seeded with `seed`.
    func field(seed: UInt64) -> HairField {
        HairField(heightMillimetres: thicknessMillimetres, seed: seed, floorShare: Self.thinnestShare)
    }

    /// The hairline's height in the head frame (metres) above the point's direction: 45 mm
    /// above the tragion–nasion plane mid-forehead, the cap's edge over the temples and the
    /// ears, 20 mm below the plane at the nape.
    static func hairline(at p: SIMD3<Double>) -> Double {
        let across = (p.x * p.x + p.y * p.y).squareRoot()
        guard across > 0 else { return Cap.lowerEdge }
        let forward = p.y / across
        let front = max(0, forward), back = max(0, -forward)
        return Cap.lowerEdge + 0.033 * front * front * front * front - 0.032 * back * back
    }

    /// Whether `p` (head frame, on the skull) lies under hair.
    static func covers(_ p: SIMD3<Double>) -> Bool { p.z > hairline(at: p) }

    /// Linear RGB of the hair: blond or near black.
    var colour: SIMD3<Float> {
        switch shade {
        case .light: SIMD3(0.78, 0.64, 0.42)
        case .dark: SIMD3(0.09, 0.07, 0.06)
        }
    }

    /// The hair's colour at `p` (head frame): strands running down from the crown, a little
    /// lighter and darker across each other.
    @inline(__always)
    func colour(at p: SIMD3<Double>) -> SIMD3<Float> {
        let around = FastTrig.atan2(p.y, p.x)
        let strand = 0.86 + 0.14 * FastTrig.sin(around * 260 + 3 * FastTrig.sin(p.z * 140))
        return colour * Float(strand)
    }

    /// The chance (0...1) that a pixel on the hair at `p` (head frame) returns no depth: most
    /// of dark hair, in patches a centimetre or two across that stay with the head; a little
    /// of light hair.
    @inline(__always)
    func depthLoss(at p: SIMD3<Double>) -> Float {
        let patches =
            FastTrig.sin(p.x * 260 + 1.3) * FastTrig.sin(p.y * 230 + 0.4) + 0.6 * FastTrig.sin(p.z * 310 + p.x * 120 + 2.1)
            + 0.5 * FastTrig.sin(p.y * 170 - p.z * 200 + 0.7)
        switch shade {
        case .light: return Float(max(0, min(1, 0.05 + 0.05 * patches)))
        case .dark: return Float(max(0, min(1, 0.55 + 0.45 * patches)))
        }
    }

    /// Extra depth noise on hair (one standard deviation, metres): the dots land on strands
    /// at different depths.
    static let depthNoise: Float = 0.0008
}
