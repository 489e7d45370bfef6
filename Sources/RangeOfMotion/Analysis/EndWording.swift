/// The English wording of the movement's ends that the command line and the report share; the
/// app words them from its own strings, in its language.
extension RangeOfMotionAnalysis {
    /// The smallest angle as people read it, nil when no frame passed.
    public func smallestAngleText(degrees: (Double) -> String) -> String? {
        minimum.map { Self.endText($0, unseen: mostBentUnseen, beyond: "less", degrees: degrees) }
    }

    /// The largest angle as people read it, nil when no frame passed.
    public func largestAngleText(degrees: (Double) -> String) -> String? {
        maximum.map { Self.endText($0, unseen: straightestUnseen, beyond: "more", degrees: degrees) }
    }

    /// A seen end is a value with its spread; an end the leg left the picture at is a bound
    /// without one, and says why.
    static func endText(_ end: ExtremeFrame, unseen: Bool, beyond: String, degrees: (Double) -> String) -> String {
        if unseen { return degrees(end.angle) + " or \(beyond), the leg left the picture there" }
        return degrees(end.angle) + (end.uncertainty.map { " ± " + degrees($0) } ?? "")
    }
}

extension NeutralZero {
    /// "at least " before a number that is a bound, nothing before a value.
    public static func boundPrefix(_ isBound: Bool) -> String { isBound ? "at least " : "" }

    /// Flexion as people read it: "at least 118.0°" when the most bent end was not seen.
    public func flexionText(degrees: (Double) -> String) -> String { Self.boundPrefix(flexionAtLeast) + degrees(flexionDegrees) }

    /// Extension as people read it, a bound when the straightest end was not seen.
    public func extensionText(degrees: (Double) -> String) -> String { Self.boundPrefix(extensionAtLeast) + degrees(extensionDegrees) }
}
