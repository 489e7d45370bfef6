import Foundation
import Geometry
import Imaging

/// Colours of the scene's surfaces, before light and sensor noise, as linear 0...1 RGB.
enum Palette {
    static let skin = SIMD3<Float>(0.93, 0.74, 0.62)
    static let fabric = SIMD3<Float>(0.55, 0.68, 0.82)
    static let paperWhite = SIMD3<Float>(0.92, 0.92, 0.90)
    static let ink = SIMD3<Float>(0.08, 0.08, 0.09)
    static let body = SIMD3<Float>(0.85, 0.80, 0.35)
    static let parent = SIMD3<Float>(0.35, 0.30, 0.45)

    /// Knitted cap fabric: fine ribs around the head, from the point in the head frame.
    static func fabric(at p: SIMD3<Double>) -> SIMD3<Float> {
        let rib = Float(0.9 + 0.1 * sin(atan2(p.y, p.x) * 180))
        return fabric * rib
    }

    /// Striped clothes, from the point in the world frame.
    static func clothes(_ base: SIMD3<Float>, at p: SIMD3<Double>) -> SIMD3<Float> {
        let stripe: Float = Int((p.z + 2) * 40) % 2 == 0 ? 1 : 0.75
        return base * stripe
    }

    /// The room around: a box with wallpaper, a floor and a ceiling, 1.4–3 m from the infant.
    static let roomLow = SIMD3<Double>(-2.2, -3.0, -1.1)
    static let roomHigh = SIMD3<Double>(2.6, 1.8, 1.5)

    /// Where a ray from inside the room meets its walls, and the colour there.
    static func room(origin: SIMD3<Double>, direction d: SIMD3<Double>) -> (distance: Double, colour: SIMD3<Float>) {
        var t = Double.infinity
        var axis = 0
        for k in 0..<3 where d[k] != 0 {
            let bound = d[k] > 0 ? roomHigh[k] : roomLow[k]
            let tk = (bound - origin[k]) / d[k]
            if tk > 0 && tk < t { t = tk; axis = k }
        }
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
            let band = Float(0.85 + 0.15 * sin(u * 9))
            colour = abs(p.z - 0.4) < 0.02 ? SIMD3(0.3, 0.2, 0.15) : SIMD3(0.80, 0.76, 0.62) * band
        }
        return (t, colour)
    }
}
