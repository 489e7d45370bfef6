import Foundation
import Geometry

/// A stocking cap printed with blotches of two colours instead of carrying stickers: the print
/// is this cap's layout. It is a field in the head frame (x toward the infant's right, y
/// forward, z up, as the sticker layouts' placements are), a sum of plane waves in fixed
/// directions; where the sum is positive the fabric is `first`'s colour, elsewhere `second`'s,
/// blended over about a millimetre as a printed edge is. Every cap of a layout carries the same
/// print, so where a scan shows it, it tells how the head lies, as the stickers' places do.
///
/// The field is solid (a function of the point on the head, not of the fabric's own
/// coordinates): a print laid flat and stretched onto a head differs from it by the stretch,
/// as a sticker cap's markers differ from their layout's places.
public struct CapPrint: Sendable, Codable, Equatable {
    /// One plane wave: `sin(wavevector · p + phase)`, wavevector in radians per metre.
    public struct Wave: Sendable, Codable, Equatable {
        public var wavevector: SIMD3<Double>
        public var phase: Double

        public init(wavevector: SIMD3<Double>, phase: Double) {
            self.wavevector = wavevector
            self.phase = phase
        }
    }

    public var waves: [Wave]
    /// The two colours, linear 0...1 per channel: `first` where the field is positive.
    public var first: SIMD3<Float>
    public var second: SIMD3<Float>
    /// How the cap is worn in the print's frame, metres: its lower edge at this height, and the
    /// middle of the vault it covers (x across, y forward) here. A scan's print is looked for
    /// only within 20 mm of a cap so worn: a print's blotches come back, nearly, under shifts of
    /// a few centimetres.
    public var rimHeight: Double
    public var vaultCentre: SIMD2<Double>

    public init(waves: [Wave], first: SIMD3<Float>, second: SIMD3<Float>, rimHeight: Double = 0.012, vaultCentre: SIMD2<Double> = SIMD2(0, 0.004)) {
        self.waves = waves
        self.first = first
        self.second = second
        self.rimHeight = rimHeight
        self.vaultCentre = vaultCentre
    }

    /// The sum of the waves at `p` (head frame, metres); positive on `first`'s colour. It
    /// changes by a few hundred per metre where it crosses zero.
    @inline(__always)
    public func field(at p: SIMD3<Double>) -> Double {
        var sum = 0.0
        for wave in waves { sum += FastTrig.sin((wave.wavevector * p).sum() + wave.phase) }
        return sum
    }

    /// The print's colour at `p`: `first` and `second` blended over the 0.4 of the field
    /// (about a millimetre) either side of its zero.
    @inline(__always)
    public func colour(at p: SIMD3<Double>) -> SIMD3<Float> {
        let share = Float(min(1, max(0, 0.5 + field(at: p) / 0.4)))
        return first * share + second * (1 - share)
    }

    /// HeadScan's print: navy and orange blotches 2–4 cm across, six waves of wavelengths
    /// 25–45 mm in directions drawn once and fixed, worn with its edge 12 mm above the
    /// tragion–nasion plane (where the sticker cap's edge sits) and centred over the vault.
    public static let standard: CapPrint = {
        var random = Xoshiro256(seed: 0x5052_494E_54, stream: 7)
        let waves = (0..<6).map { n in
            let d = SIMD3(Double(random.gaussian()), Double(random.gaussian()), Double(random.gaussian()))
            let length = (d * d).sum().squareRoot()
            let wavelength = 0.025 + 0.004 * Double(n)
            let k = length > 0 ? d / length * (2 * Double.pi / wavelength) : SIMD3(2 * Double.pi / wavelength, 0, 0)
            return Wave(wavevector: k, phase: random.unitDouble() * 2 * Double.pi)
        }
        return CapPrint(waves: waves, first: SIMD3(0.14, 0.20, 0.46), second: SIMD3(0.92, 0.56, 0.20))
    }()
}
