import Foundation
import Geometry
import Imaging
import Markers

/// Colours of the scene's surfaces, before light and sensor noise, as linear 0...1 RGB.
///
/// The patterns run once per pixel of every frame, so they use the cheap periodic and angle
/// functions of `FastTrig` rather than libm: a pattern only has to look like fabric or
/// wallpaper, and the approximations are far below one 8-bit level.
enum Palette {
    static let skin = SIMD3<Float>(0.93, 0.74, 0.62)
    static let fabric = SIMD3<Float>(0.55, 0.68, 0.82)
    static let paperWhite = SIMD3<Float>(0.92, 0.92, 0.90)
    static let ink = SIMD3<Float>(0.08, 0.08, 0.09)
    static let body = SIMD3<Float>(0.85, 0.80, 0.35)
    static let parent = SIMD3<Float>(0.35, 0.30, 0.45)
    static let parentSkin = SIMD3<Float>(0.86, 0.67, 0.56)
    static let hair = SIMD3<Float>(0.36, 0.26, 0.16)
    static let brow = SIMD3<Float>(0.46, 0.34, 0.24)
    static let iris = SIMD3<Float>(0.16, 0.11, 0.09)
    static let sclera = SIMD3<Float>(0.90, 0.90, 0.88)
    /// Inside an open mouth.
    static let mouth = SIMD3<Float>(0.32, 0.09, 0.10)

    /// The head below the cap, from the point in the head frame: hair behind and above the
    /// ears, eyebrows and eyes on the face, skin elsewhere.
    @inline(__always)
    static func face(at p: SIMD3<Double>) -> SIMD3<Float> {
        if p.y < -0.012 && p.z > -0.02 || p.y < 0.035 && p.z > 0.004 && abs(p.x) > 0.03 { return hair }
        guard p.y > 0.02 else { return skin }
        let side = abs(p.x)
        let u = (side - 0.0175) / 0.0095
        if u * u < 1 {
            let arch = 0.0015 * (1 - u * u)
            if p.z > 0.0055 + arch && p.z < 0.008 + arch { return brow }
        }
        let ex = (side - 0.017) / 0.006, ez = (p.z + 0.007) / 0.0026
        guard ex * ex + ez * ez < 1 else { return skin }
        let ix = (side - 0.017) / 0.0026
        return ix * ix + ez * ez < 1 ? iris : sclera
    }

    /// Knitted cap fabric: fine ribs around the head, from the point in the head frame.
    @inline(__always)
    static func fabric(at p: SIMD3<Double>) -> SIMD3<Float> {
        let rib = Float(0.9 + 0.1 * FastTrig.sin(FastTrig.atan2(p.y, p.x) * 180))
        return fabric * rib
    }

    /// The printed cap's fabric at `p` (head frame): the standard print's colours.
    @inline(__always)
    static func printedFabric(at p: SIMD3<Double>) -> SIMD3<Float> { CapPrint.standard.colour(at: p) }

    /// Striped clothes, from the point in the world frame.
    @inline(__always)
    static func clothes(_ base: SIMD3<Float>, at p: SIMD3<Double>) -> SIMD3<Float> {
        let stripe: Float = Int((p.z + 2) * 40) % 2 == 0 ? 1 : 0.75
        return base * stripe
    }

    /// The room around: a box with wallpaper, a floor and a ceiling, 1.4–3 m from the infant.
    static let roomLow = SIMD3<Double>(-2.2, -3.0, -1.1)
    static let roomHigh = SIMD3<Double>(2.6, 1.8, 1.5)

    /// Where a ray from inside the room meets its walls, and the colour there.
    @inline(__always)
    static func room(origin: SIMD3<Double>, direction d: SIMD3<Double>) -> (distance: Double, colour: SIMD3<Float>) {
        let bound = SIMD3<Double>(
            d.x > 0 ? roomHigh.x : roomLow.x, d.y > 0 ? roomHigh.y : roomLow.y, d.z > 0 ? roomHigh.z : roomLow.z)
        // Division by a zero component gives ±infinity, which never wins the minimum.
        let t3 = (bound - origin) / d
        var t = Double.infinity, axis = 0
        if t3.x > 0 { t = t3.x }
        if t3.y > 0, t3.y < t { t = t3.y; axis = 1 }
        if t3.z > 0, t3.z < t { t = t3.z; axis = 2 }
        let p = origin + d * t
        let colour: SIMD3<Float>
        switch axis {
        case 2 where d.z < 0:  // floor boards
            let board = Float(Int((p.x + 10) * 6) % 3) * 0.05
            colour = SIMD3(0.55 + board, 0.42 + board, 0.30)
        case 2:  // ceiling
            colour = SIMD3(0.90, 0.90, 0.88)
        default:  // wallpaper: soft vertical bands and a picture rail
            let u = axis == 0 ? p.y : p.x
            let band = Float(0.85 + 0.15 * FastTrig.sin(u * 9))
            colour = abs(p.z - 0.4) < 0.02 ? SIMD3(0.3, 0.2, 0.15) : SIMD3(0.80, 0.76, 0.62) * band
        }
        return (t, colour)
    }
}
