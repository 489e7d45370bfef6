import Foundation

/// The knee angle in the image, as the seed computes it, and the sense in which the knee bends.
public enum KneeAngle {
    /// The interior angle at the knee between the vectors knee→hip and knee→ankle, in
    /// degrees: 180 when the leg is straight, smaller the more the knee bends. Nil when a
    /// segment has no length.
    ///
    /// The seed writes it as acos(v1·v2 / |v1||v2|); atan2(|v1×v2|, v1·v2) is the same angle
    /// without acos's loss of precision near a straight leg, where the extension is read.
    public static func interior(hip: SIMD2<Double>, knee: SIMD2<Double>, ankle: SIMD2<Double>) -> Double? {
        let toHip = hip - knee, toAnkle = ankle - knee
        guard length(toHip) > 0, length(toAnkle) > 0 else { return nil }
        let cross = toHip.x * toAnkle.y - toHip.y * toAnkle.x
        let dot = (toHip * toAnkle).sum()
        return atan2(abs(cross), dot) * 180 / .pi
    }

    /// The sine of the bend, signed by its sense in the image (x right, y down): positive
    /// when the shank turns clockwise on screen from the thigh's direction, which is flexion
    /// for a patient facing +x. Nil when a segment has no length.
    public static func bendSine(hip: SIMD2<Double>, knee: SIMD2<Double>, ankle: SIMD2<Double>) -> Double? {
        let thigh = knee - hip, shank = ankle - knee
        let product = length(thigh) * length(shank)
        guard product > 0 else { return nil }
        return (thigh.x * shank.y - thigh.y * shank.x) / product
    }

    /// The angle read on the side where flexion closes the knee: the interior angle when the
    /// knee bends in the flexion sense, 360 minus it when it bends the other way, so a knee
    /// bent 5° backwards (hyperextended) reads 185 rather than the seed's 175. Without a
    /// known flexion sense (+1 or -1) it is the interior angle.
    public static func onFlexionSide(hip: SIMD2<Double>, knee: SIMD2<Double>, ankle: SIMD2<Double>, flexionSense: Int?) -> Double? {
        guard let interior = interior(hip: hip, knee: knee, ankle: ankle) else { return nil }
        guard let flexionSense, let sine = bendSine(hip: hip, knee: knee, ankle: ankle) else { return interior }
        return sine * Double(flexionSense) < 0 ? 360 - interior : interior
    }

    static func length(_ v: SIMD2<Double>) -> Double { (v * v).sum().squareRoot() }
}
