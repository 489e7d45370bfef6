/// The knee's extension/flexion in the neutral-zero notation (DGUV "Neutral-Null-Methode").
///
/// The neutral position 0 is the straight leg, interior angle 180°. Flexion is 180 − the
/// smallest angle; extension is the largest angle − 180, positive for hyperextension,
/// negative when the knee does not straighten (an extension deficit). The form writes three
/// numbers, extension–neutral–flexion, with the 0 in the middle when the movement passes
/// through the neutral position (5-0-140), and the 0 moved to the side that is not reached
/// otherwise: a knee that straightens only to 10° short of straight and bends to 120° is
/// 0-10-120; one that stays hyperextended between 20° and 5° is 20-5-0.
///
/// An end the camera did not see (the leg left the picture there) is a bound, not a value:
/// the knee went at least that far. Its number in the form is marked, "0-0-≥118", and a
/// middle number it sets (an extension deficit) is at most what was seen, "0-≤10-120".
public struct NeutralZero: Sendable, Equatable, Codable {
    /// The largest angle − 180, degrees (negative: extension deficit).
    public var extensionDegrees: Double
    /// 180 − the smallest angle, degrees (negative only when the knee never reaches straight).
    public var flexionDegrees: Double
    /// Whether the knee may bend further than `flexionDegrees`: its most bent end was not seen.
    public var flexionAtLeast = false
    /// Whether the knee may straighten further than `extensionDegrees`: its straightest end
    /// was not seen.
    public var extensionAtLeast = false

    /// From the smallest and largest knee angle (interior, 180 = straight), in degrees, and
    /// whether either end was not seen.
    public init(minAngle: Double, maxAngle: Double, flexionAtLeast: Bool = false, extensionAtLeast: Bool = false) {
        extensionDegrees = maxAngle - 180
        flexionDegrees = 180 - minAngle
        self.flexionAtLeast = flexionAtLeast
        self.extensionAtLeast = extensionAtLeast
    }

    /// The form's three whole numbers: extension side, middle, flexion side.
    public var values: [Int] { parts.map(\.value) }

    /// "5-0-140"; "0-0-≥118" when the most bent end was not seen.
    public var notation: String {
        parts.map { ($0.bound?.rawValue ?? "") + String($0.value) }.joined(separator: "-")
    }

    /// Whether either end is a bound rather than a value.
    public var isBound: Bool { flexionAtLeast || extensionAtLeast }

    /// How a number of the form relates to the knee's true range.
    public enum Bound: String, Sendable {
        case atLeast = "≥", atMost = "≤"
    }

    /// Each number of the form with its bound, nil where it is a value. A number on its own
    /// side of the 0 grows with the unseen end; one in the middle (the side not reached)
    /// shrinks with it.
    private var parts: [(value: Int, bound: Bound?)] {
        let e = Int(extensionDegrees.rounded()), f = Int(flexionDegrees.rounded())
        let onSide = { (open: Bool) in open ? Bound.atLeast : nil }
        let inMiddle = { (open: Bool) in open ? Bound.atMost : nil }
        if e < 0 { return [(0, nil), (-e, inMiddle(extensionAtLeast)), (f, onSide(flexionAtLeast))] }
        if f < 0 { return [(e, onSide(extensionAtLeast)), (-f, inMiddle(flexionAtLeast)), (0, nil)] }
        return [(e, onSide(extensionAtLeast)), (0, nil), (f, onSide(flexionAtLeast))]
    }

    private enum CodingKeys: String, CodingKey {
        case extensionDegrees = "extension", flexionDegrees = "flexion", flexionAtLeast, extensionAtLeast
    }

    /// A value without bounds keeps the form it always had: the flags are written only when set.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(extensionDegrees, forKey: .extensionDegrees)
        try c.encode(flexionDegrees, forKey: .flexionDegrees)
        if flexionAtLeast { try c.encode(true, forKey: .flexionAtLeast) }
        if extensionAtLeast { try c.encode(true, forKey: .extensionAtLeast) }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        extensionDegrees = try c.decode(Double.self, forKey: .extensionDegrees)
        flexionDegrees = try c.decode(Double.self, forKey: .flexionDegrees)
        flexionAtLeast = try c.decodeIfPresent(Bool.self, forKey: .flexionAtLeast) ?? false
        extensionAtLeast = try c.decodeIfPresent(Bool.self, forKey: .extensionAtLeast) ?? false
    }
}
