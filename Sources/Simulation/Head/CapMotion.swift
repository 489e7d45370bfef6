import Foundation
import Geometry

/// A cap that moves on the head during a scan: one slide (the whole cap turns about the head's
/// centre, over `rampSeconds`, at a seeded moment in the middle of the scan) and the fabric's
/// stretch (each sticker of the lower rings wanders on its own slow rhythm). Every sticker stays
/// on the skull (lifted by the hair, as when it was put on); its print keeps its damage.
struct CapMotion: Sendable {
    /// Seconds the slide takes.
    static let rampSeconds = 1.5
    /// Elevation (radians) below which the fabric stretches fully; above 30° it holds.
    static let stretchFull = -4.0 * Double.pi / 180
    static let stretchNone = 30.0 * Double.pi / 180

    let slideRadians: Double
    let slideAxis: SIMD3<Double>
    /// When the slide starts, seconds from the scan's start.
    let slideStart: Double
    /// Most stretch, metres on the skull.
    let stretch: Double
    /// Per sticker ID: the tangent direction of its wander (east, north weights) and its phase.
    private let wander: [Int: (direction: SIMD2<Double>, phase: Double, period: Double)]

    init(fit: CapFit, ids: [Int], duration: Double, seed: UInt64) {
        var random = Xoshiro256(seed: seed, stream: 0xCA9)
        slideRadians = fit.slideDegrees * Double.pi / 180
        // Mostly a turn about the vertical, with some tilt: how a cap is pushed round and back.
        let tilt = SIMD3(0.5 * Double(random.gaussian()), 0.5 * Double(random.gaussian()), random.unitDouble() < 0.5 ? -1.0 : 1.0)
        slideAxis = tilt / (tilt * tilt).sum().squareRoot()
        slideStart = duration * (0.35 + 0.2 * random.unitDouble())
        stretch = fit.stretchMillimetres / 1000
        var wander: [Int: (direction: SIMD2<Double>, phase: Double, period: Double)] = [:]
        for id in ids.sorted() {
            let angle = random.unitDouble() * 2 * Double.pi
            wander[id] = (SIMD2(cos(angle), sin(angle)), random.unitDouble() * 2 * Double.pi, 2 + 3 * random.unitDouble())
        }
        self.wander = wander
    }

    /// Share of the slide done at `t` (a smooth step).
    func slideShare(at t: Double) -> Double {
        let x = min(1, max(0, (t - slideStart) / Self.rampSeconds))
        return x * x * (3 - 2 * x)
    }

    /// The turn of the cap on the head at `t`.
    func slide(at t: Double) -> Rotation3 {
        Rotation3(axis: slideAxis, angle: slideRadians * slideShare(at: t))
    }

    /// The cap's stickers where they are at `t`.
    func stickers(of cap: Cap, at t: Double, on head: any CapSurface, hair: HairField?) -> [MarkerSticker] {
        let turn = slide(at: t)
        return cap.stickers.map { sticker in
            guard let spot = cap.spots[sticker.id] else { return sticker }
            var direction = Self.direction(phi: spot.x, psi: spot.y)
            if stretch > 0, let w = wander[sticker.id] {
                let weight = min(1, max(0, (Self.stretchNone - spot.y) / (Self.stretchNone - Self.stretchFull)))
                let east = SIMD3(-sin(spot.x), cos(spot.x), 0)
                let north = cross(direction, east)
                let swing = sin(2 * Double.pi * t / w.period + w.phase)
                // An infant's skull is about 70 mm in radius: metres on it over radians.
                direction += (east * w.direction.x + north * w.direction.y) * (stretch * weight * swing / 0.07)
            }
            direction = normalized(turn.apply(direction))
            let moved = (phi: atan2(direction.y, direction.x), psi: asin(min(1, max(-1, direction.z))))
            var placed = Cap.sticker(id: sticker.id, region: sticker.region, at: moved, on: head, side: sticker.side, hair: hair)
            // The print turns with the cap, laid onto the skull where it now is.
            let up = turn.apply(sticker.up)
            let tangentUp = up - placed.normal * dot(up, placed.normal)
            if length(tangentUp) > 1e-9 {
                placed.up = normalized(tangentUp)
                placed.right = cross(placed.up, placed.normal)
            }
            placed.damage = sticker.damage
            return placed
        }
    }

    static func direction(phi: Double, psi: Double) -> SIMD3<Double> {
        SIMD3(cos(psi) * cos(phi), cos(psi) * sin(phi), sin(psi))
    }
}
