/// The values a numeric setting accepts. Kept as data, next to the settings, so the command
/// line's errors and the app's settings screen state the same rule the guide enforces.
public enum SettingLimit: Sendable, Equatable, CustomStringConvertible {
    /// At least this value (whole-number settings: counts of frames or markers).
    case atLeast(Double)
    /// Greater than zero.
    case positive
    /// Zero or more.
    case nonNegative
    /// Within the closed range.
    case within(ClosedRange<Double>)
    /// From the lower bound up to, but not including, the upper one.
    case from(Double, below: Double)
    /// Above the lower bound, up to and including the upper one.
    case above(Double, upTo: Double)

    /// Whether `value` is allowed; NaN never is.
    public func contains(_ value: Double) -> Bool {
        switch self {
        case .atLeast(let lower): value >= lower
        case .positive: value > 0
        case .nonNegative: value >= 0
        case .within(let range): range.contains(value)
        case .from(let lower, let upper): value >= lower && value < upper
        case .above(let lower, let upper): value > lower && value <= upper
        }
    }

    /// The rule as the command line states it: "must be at least 1", "must lie in 0..<0.5".
    public var description: String {
        switch self {
        case .atLeast(let lower): "must be at least \(Self.text(lower))"
        case .positive: "must be positive"
        case .nonNegative: "must not be negative"
        case .within(let range): "must lie in \(Self.text(range.lowerBound))...\(Self.text(range.upperBound))"
        case .from(let lower, let upper): "must lie in \(Self.text(lower))..<\(Self.text(upper))"
        case .above(let lower, let upper): "must lie in (\(Self.text(lower)), \(Self.text(upper))]"
        }
    }

    /// 1 rather than 1.0, 0.5 as it is.
    static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
