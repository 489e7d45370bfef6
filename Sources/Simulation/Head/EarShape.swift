import Foundation

/// The outer ear of a simulated head: its size, how far it leans back and how far it stands off.
///
/// The ear is a relief on the side of the head around the tragion: a tragus in front of the
/// concha, the crus of the helix above it with a notch between them, the pinna with its helix
/// rim standing off toward the back, and the lobule. The cap's rim presses the top of the ear
/// flat, as a real cap does. There is no gap behind the pinna (a clay ear): the camera walks
/// in front of the ear, which is where the tragion is seen.
///
/// The tragion, as anthropometry defines it (the notch just above the tragus), is the middle
/// of the notch's mouth: the tragus's upper margin and the crus's lower margin lie 1.25 mm
/// below and above it, and both their front edges touch the face there.
public struct EarShape: Sendable, Codable, Equatable {
    /// Size against a 6-month-old's ear of about 40 mm length (0.8–1.25).
    public var scale: Double
    /// How far the ear's long axis leans back from vertical, degrees (0–35).
    public var tiltDegrees: Double
    /// How steeply the pinna stands off the head toward its back edge, degrees (5–45).
    public var protrusionDegrees: Double

    public init(scale: Double = 1, tiltDegrees: Double = 15, protrusionDegrees: Double = 25) {
        self.scale = scale
        self.tiltDegrees = tiltDegrees
        self.protrusionDegrees = protrusionDegrees
    }

    /// Problems that keep the ear from being built, in words.
    func problems() -> [String] {
        var out: [String] = []
        if !(0.8...1.25).contains(scale) { out.append("ear scale \(scale) is outside 0.8–1.25") }
        if !(0...35).contains(tiltDegrees) { out.append("ear tilt \(tiltDegrees)° is outside 0–35°") }
        if !(5...45).contains(protrusionDegrees) { out.append("ear protrusion \(protrusionDegrees)° is outside 5–45°") }
        return out
    }

    /// Height of the ear above the head's side, metres, at `back` metres behind and `up`
    /// metres above the tragion (the head's own directions, not the ear's).
    func height(back: Double, up: Double) -> Double {
        let theta = tiltDegrees * Double.pi / 180
        // Into the ear's own axes in millimetres of a standard-size ear.
        let b = (back * cos(theta) - up * sin(theta)) * 1000 / scale
        let v = (back * sin(theta) + up * cos(theta)) * 1000 / scale
        return Self.relief(b: b, v: v, protrusion: protrusionDegrees * Double.pi / 180) * scale / 1000
    }

    /// The standard ear's relief in millimetres at (b back, v up) in its own axes.
    static func relief(b: Double, v: Double, protrusion: Double) -> Double {
        let tragus = dome(b - 2.2, v + 4.75, semi: SIMD2(2.2, 3.5), height: 4.5)
        let crus = dome(b - 2.2, v - 4.75, semi: SIMD2(2.2, 3.5), height: 4.0)
        // The pinna: an ellipse standing off more toward its back, with a rim along the
        // helix and the concha's bowl sunk into its front.
        let q = pow((b - 13) / 11, 2) + pow((v - 2) / 19, 2)
        guard q < 1 || tragus > 0 || crus > 0 else { return 0 }
        var body = 0.0
        if q < 1 {
            let edge = smoothstep((1 - q) * 6)
            let plate = 2.5 + tan(protrusion) * max(0, b - 5)
            let rimWeight = b > 8 || v > 8 ? 1.0 : 0.0
            let rim = 2 * exp(-pow((1 - q.squareRoot()) * 19 / 2, 2)) * rimWeight
            body = (plate + rim) * edge
            let bowlDistance = ((b - 7.5) * (b - 7.5) + (v + 1) * (v + 1)).squareRoot()
            if bowlDistance < 6.5, body > 1 {
                body -= (body - 1) * (1 - pow(bowlDistance / 6.5, 2))
            }
        }
        return max(tragus, crus, body)
    }

    /// A rounded dome over an ellipse, zero outside.
    private static func dome(_ db: Double, _ dv: Double, semi: SIMD2<Double>, height: Double) -> Double {
        let e = (db / semi.x) * (db / semi.x) + (dv / semi.y) * (dv / semi.y)
        return e < 1 ? height * (1 - e).squareRoot() : 0
    }
}

/// 0 below 0, 1 above 1, a smooth S between.
func smoothstep(_ t: Double) -> Double {
    let c = min(1, max(0, t))
    return c * c * (3 - 2 * c)
}
