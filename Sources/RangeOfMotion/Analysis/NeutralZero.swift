/// The knee's extension/flexion in the neutral-zero notation (DGUV "Neutral-Null-Methode").
///
/// The neutral position 0 is the straight leg, interior angle 180°. Flexion is 180 − the
/// smallest angle; extension is the largest angle − 180, positive for hyperextension,
/// negative when the knee does not straighten (an extension deficit). The form writes three
/// numbers, extension–neutral–flexion, with the 0 in the middle when the movement passes
/// through the neutral position (5-0-140), and the 0 moved to the side that is not reached
/// otherwise: a knee that straightens only to 10° short of straight and bends to 120° is
/// 0-10-120; one that stays hyperextended between 20° and 5° is 20-5-0.
public struct NeutralZero: Sendable, Equatable, Codable {
    /// The largest angle − 180, degrees (negative: extension deficit).
    public var extensionDegrees: Double
    /// 180 − the smallest angle, degrees (negative only when the knee never reaches straight).
    public var flexionDegrees: Double

    /// From the smallest and largest knee angle (interior, 180 = straight), in degrees.
    public init(minAngle: Double, maxAngle: Double) {
        extensionDegrees = maxAngle - 180
        flexionDegrees = 180 - minAngle
    }

    /// The form's three whole numbers: extension side, middle, flexion side.
    public var values: [Int] {
        let e = Int(extensionDegrees.rounded()), f = Int(flexionDegrees.rounded())
        if e < 0 { return [0, -e, f] }
        if f < 0 { return [e, -f, 0] }
        return [e, 0, f]
    }

    /// "5-0-140".
    public var notation: String { values.map(String.init).joined(separator: "-") }

    private enum CodingKeys: String, CodingKey {
        case extensionDegrees = "extension", flexionDegrees = "flexion"
    }
}
