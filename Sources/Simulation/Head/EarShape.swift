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
///
/// The standard ear is a clay ear: its relief never goes below the skin. A real ear's concha is
/// a bowl sunk up to 6 mm into the side of the head behind a tragus that stands only about 2 mm
/// out (a scan of a real adult head showed both): `conchaDepthMM` sinks that bowl, into the
/// skull's own surface, and `tragusHeightMM` lowers the tragus and the crus with it.
public struct EarShape: Sendable, Codable, Equatable {
    /// Size against a 6-month-old's ear of about 40 mm length (0.8–1.25).
    public var scale: Double
    /// How far the ear's long axis leans back from vertical, degrees (0–35).
    public var tiltDegrees: Double
    /// How steeply the pinna stands off the head toward its back edge, degrees (5–45).
    public var protrusionDegrees: Double
    /// How deep the concha's floor lies below the skin, mm of a standard-size ear (0–8; 0 is
    /// the clay ear).
    public var conchaDepthMM: Double
    /// How far the tragus stands out of the skin, mm of a standard-size ear (1.5–5); the crus of
    /// the helix stands out in proportion.
    public var tragusHeightMM: Double

    public init(
        scale: Double = 1, tiltDegrees: Double = 15, protrusionDegrees: Double = 25, conchaDepthMM: Double = 0,
        tragusHeightMM: Double = 4.5
    ) {
        self.scale = scale
        self.tiltDegrees = tiltDegrees
        self.protrusionDegrees = protrusionDegrees
        self.conchaDepthMM = conchaDepthMM
        self.tragusHeightMM = tragusHeightMM
    }

    private enum CodingKeys: String, CodingKey {
        case scale, tiltDegrees, protrusionDegrees, conchaDepthMM, tragusHeightMM
    }

    // Truth written before the concha was modelled reads as the clay ear.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            scale: try c.decode(Double.self, forKey: .scale), tiltDegrees: try c.decode(Double.self, forKey: .tiltDegrees),
            protrusionDegrees: try c.decode(Double.self, forKey: .protrusionDegrees),
            conchaDepthMM: try c.decodeIfPresent(Double.self, forKey: .conchaDepthMM) ?? 0,
            tragusHeightMM: try c.decodeIfPresent(Double.self, forKey: .tragusHeightMM) ?? 4.5)
    }

    /// Problems that keep the ear from being built, in words.
    func problems() -> [String] {
        var out: [String] = []
        if !(0.8...1.25).contains(scale) { out.append("ear scale \(scale) is outside 0.8–1.25") }
        if !(0...35).contains(tiltDegrees) { out.append("ear tilt \(tiltDegrees)° is outside 0–35°") }
        if !(5...45).contains(protrusionDegrees) { out.append("ear protrusion \(protrusionDegrees)° is outside 5–45°") }
        if !(0...8).contains(conchaDepthMM) { out.append("concha depth \(conchaDepthMM) mm is outside 0–8 mm") }
        if !(1.5...5).contains(tragusHeightMM) { out.append("tragus height \(tragusHeightMM) mm is outside 1.5–5 mm") }
        return out
    }

    /// Whether the concha sinks below the skin (the skull's surface then follows it).
    public var hasSunkConcha: Bool { conchaDepthMM > 0 }

    /// Height of the ear above the head's side, metres, at `back` metres behind and `up`
    /// metres above the tragion (the head's own directions, not the ear's).
    func height(back: Double, up: Double) -> Double {
        let theta = tiltDegrees * Double.pi / 180
        // Into the ear's own axes in millimetres of a standard-size ear.
        let b = (back * cos(theta) - up * sin(theta)) * 1000 / scale
        let v = (back * sin(theta) + up * cos(theta)) * 1000 / scale
        let relief = Self.relief(b: b, v: v, protrusion: protrusionDegrees * Double.pi / 180, tragus: tragusHeightMM, concha: conchaDepthMM)
        return relief * scale / 1000
    }

    /// The concha's bowl, in the ear's own axes (mm): behind the tragus and below the crus,
    /// reaching forward to the notch between them.
    static let conchaCentre = SIMD2(8.0, -2.0)
    static let conchaSemiAxes = SIMD2(6.0, 6.5)

    /// The standard ear's relief in millimetres at (b back, v up) in its own axes; below zero
    /// only in a sunk concha.
    static func relief(b: Double, v: Double, protrusion: Double, tragus tragusHeight: Double = 4.5, concha: Double = 0) -> Double {
        let tragus = dome(b - 2.2, v + 4.75, semi: SIMD2(2.2, 3.5), height: tragusHeight)
        let crus = dome(b - 2.2, v - 4.75, semi: SIMD2(2.2, 3.5), height: 4.0 * tragusHeight / 4.5)
        if concha > 0 { return sunkRelief(b: b, v: v, protrusion: protrusion, tragus: tragus, crus: crus, depth: concha) }
        // The pinna: an ellipse standing off more toward its back, with a rim along the
        // helix and the concha's bowl sunk into its front.
        let q = pow((b - 13) / 11, 2) + pow((v - 2) / 19, 2)
        guard q < 1 || tragus > 0 || crus > 0 else { return 0 }
        var body = 0.0
        if q < 1 {
            body = pinna(b: b, v: v, q: q, protrusion: protrusion)
            let bowlDistance = ((b - 7.5) * (b - 7.5) + (v + 1) * (v + 1)).squareRoot()
            if bowlDistance < 6.5, body > 1 {
                body -= (body - 1) * (1 - pow(bowlDistance / 6.5, 2))
            }
        }
        return max(tragus, crus, body)
    }

    /// The relief of an ear whose concha is a bowl `depth` mm deep: the pinna's plate runs
    /// down into it behind the notch, and the tragus and crus stand at its front.
    private static func sunkRelief(b: Double, v: Double, protrusion: Double, tragus: Double, crus: Double, depth: Double) -> Double {
        let d = (SIMD2(b, v) - conchaCentre) / conchaSemiAxes
        let e = d.x * d.x + d.y * d.y
        let q = pow((b - 13) / 11, 2) + pow((v - 2) / 19, 2)
        guard q < 1 || tragus > 0 || crus > 0 || e < 1 else { return 0 }
        var body = 0.0
        if q < 1 { body = pinna(b: b, v: v, q: q, protrusion: protrusion) }
        if e < 1 {
            // The wall falls from the plate to the floor over the bowl's outer half.
            let inside = smoothstep((1 - e) * 2)
            body = body * (1 - inside) - depth * inside
        }
        var value = body
        if tragus > 0 { value = max(value, tragus) }
        if crus > 0 { value = max(value, crus) }
        return value
    }

    /// The pinna's plate with its rim along the helix, at a point `q` (below 1) into its
    /// ellipse: the plate stands off more toward its back.
    private static func pinna(b: Double, v: Double, q: Double, protrusion: Double) -> Double {
        let edge = smoothstep((1 - q) * 6)
        let plate = 2.5 + tan(protrusion) * max(0, b - 5)
        let rimWeight = b > 8 || v > 8 ? 1.0 : 0.0
        let rim = 2 * exp(-pow((1 - q.squareRoot()) * 19 / 2, 2)) * rimWeight
        return (plate + rim) * edge
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
