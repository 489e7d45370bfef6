import Foundation
import Geometry

/// How badly the cap sits: the field test's problems, each off by default (a perfect cap).
///
/// - Hair under the fabric lifts the cap off the skull by up to `hairMillimetres`, unevenly
///   (a smooth, seeded field over the head): the stickers and the fabric the depth camera sees
///   stand off the skull, which the truth keeps.
/// - A cap too small rides up: its lowest ring of stickers, over the forehead, the ears and
///   the neck, is folded under and cannot be read.
/// - `lostShare` of the stickers fell off, and `damagedShare` of the rest have a smeared, torn
///   or creased print.
/// - The cap slides on the head by `slideDegrees` once during the scan, over 1.5 s (as when the
///   infant rubs against the parent's shoulder): every sticker moves over the skull with it.
/// - The fabric stretches: the stickers of the lower rings move against each other by up to
///   `stretchMillimetres`, each on its own slow rhythm.
/// - `printed`: the fabric carries a printed pattern (blotches of two colours a few
///   centimetres across), the cap a scan without stickers can follow by its colour.
/// - `bareHair`: no cap at all, the infant's own hair on the vault (see `BareHair`); nothing
///   else of the cap applies then.
public struct CapFit: Sendable, Equatable {
    /// Most the cap stands off the skull, millimetres (0 to 3 for an infant's hair).
    public var hairMillimetres: Double
    /// Whether the lowest ring of stickers is folded under.
    public var ridesUp: Bool
    /// Share of the stickers (0...1) that fell off.
    public var lostShare: Double
    /// Share of the stickers left (0...1) whose print is smeared, torn or creased, a third each.
    public var damagedShare: Double
    /// How far the cap turns on the head when it slides, degrees (8° moves a sticker about
    /// 10 mm over an infant's skull).
    public var slideDegrees: Double
    /// Most a lower sticker moves against its neighbours as the fabric stretches, millimetres.
    public var stretchMillimetres: Double
    /// Whether the fabric is printed with a pattern rather than plain.
    public var printed: Bool
    /// No cap: the head is bare, with this hair.
    public var bareHair: BareHair?

    public init(
        hairMillimetres: Double = 0, ridesUp: Bool = false, lostShare: Double = 0, damagedShare: Double = 0, slideDegrees: Double = 0,
        stretchMillimetres: Double = 0, printed: Bool = false, bareHair: BareHair? = nil
    ) {
        self.bareHair = bareHair
        self.hairMillimetres = hairMillimetres
        self.ridesUp = ridesUp
        self.lostShare = lostShare
        self.damagedShare = damagedShare
        self.slideDegrees = slideDegrees
        self.stretchMillimetres = stretchMillimetres
        self.printed = printed
    }

    /// Whether the stickers move on the head during the scan.
    public var moves: Bool { slideDegrees > 0 || stretchMillimetres > 0 }

    /// A cap as it should sit.
    public static let perfect = CapFit()

    /// Whether the fit is possible: hair 0 to 10 mm, a share in 0...1, a slide of at most 20°
    /// and a stretch of at most 10 mm; a printed cap does not slide or stretch (its print is
    /// drawn on the head, not on the moving fabric); a bare head has valid hair and nothing of
    /// a cap (no hair under it, no print, no ride, slide or stretch).
    public var isValid: Bool {
        guard
            (0...10).contains(hairMillimetres) && (0...1).contains(lostShare) && (0...1).contains(damagedShare)
                && (0...20).contains(slideDegrees) && (0...10).contains(stretchMillimetres) && !(printed && moves)
        else { return false }
        guard let bareHair else { return true }
        return bareHair.isValid && hairMillimetres == 0 && !printed && !ridesUp && !moves
    }

    /// A bare head with `hair`: no cap, no stickers.
    public static func bare(_ hair: BareHair) -> CapFit { CapFit(lostShare: 1, bareHair: hair) }
}

/// Where hair lifts the cap, or a bare head's hair stands off the scalp: a smooth field over
/// the directions from the head's centre, from `floorShare` of its height to all of it, seeded
/// so that one seed gives one head of hair.
struct HairField: Sendable {
    /// Most stand-off, metres.
    let height: Double
    /// The least stand-off as a share of `height` (0 under a cap: the fabric can touch the skin).
    let floorShare: Double
    private let waves: [(direction: SIMD3<Double>, phase: Double)]

    init(heightMillimetres: Double, seed: UInt64, floorShare: Double = 0) {
        height = heightMillimetres / 1000
        self.floorShare = min(1, max(0, floorShare))
        var random = Xoshiro256(seed: seed, stream: 0x4A12)
        waves = (0..<4).map { _ in
            let d = SIMD3(Double(random.gaussian()), Double(random.gaussian()), Double(random.gaussian()))
            let n = (d * d).sum().squareRoot()
            return (n > 0 ? d / n * 3 : SIMD3(3, 0, 0), random.unitDouble() * 2 * Double.pi)
        }
    }

    /// The stand-off toward `direction` (any length), metres: waves of about a third of the
    /// head's circumference, mapped into floorShare·height...height.
    func standOff(toward direction: SIMD3<Double>) -> Double {
        let n = (direction * direction).sum().squareRoot()
        guard height > 0, n > 0 else { return 0 }
        let unit = direction / n
        let sum = waves.reduce(0.0) { $0 + sin(($1.direction * unit).sum() + $1.phase) }
        let shape = min(1, max(0, 0.5 + 0.5 * sum / 2))
        return height * (floorShare + (1 - floorShare) * shape)
    }
}
