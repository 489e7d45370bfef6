import Foundation

/// Which way the knee flexes in the picture: the sense in which clearly bent frames bend.
/// Flexion always swings the shank backwards, so this is also which way the patient faces.
enum FlexionSense {
    /// Bends smaller than this say nothing about the sense (noise flips a straight knee).
    static let minimumBendDegrees = 20.0

    /// +1 (patient faces +x), -1 (faces -x) by majority of the clearly bent frames, or nil
    /// when no frame bends enough or the votes tie.
    static func estimate(_ legs: [FrameLegs]) -> Int? {
        let threshold = sin(minimumBendDegrees * .pi / 180)
        var votes = 0
        for leg in legs {
            guard let sine = KneeAngle.bendSine(hip: leg.hip.position, knee: leg.knee.position, ankle: leg.ankle.position),
                abs(sine) > threshold || isDeeplyBent(leg)
            else { continue }
            votes += sine > 0 ? 1 : -1
        }
        return votes == 0 ? nil : (votes > 0 ? 1 : -1)
    }

    /// Past 160° of flexion the sine shrinks again; the interior angle still tells.
    private static func isDeeplyBent(_ leg: FrameLegs) -> Bool {
        guard let interior = KneeAngle.interior(hip: leg.hip.position, knee: leg.knee.position, ankle: leg.ankle.position) else { return false }
        return interior < 90
    }
}
