/// The Children's Healthcare of Atlanta plagiocephaly severity scale.
public enum SeverityLevel: Int, Sendable, Codable, CaseIterable, Comparable, CustomStringConvertible {
    /// CVAI below 3.5 %: within normal limits.
    case level1 = 1
    /// CVAI 3.5 % to 6.25 %: mild, repositioning advised.
    case level2 = 2
    /// CVAI 6.25 % to 8.75 %: moderate, repositioning or helmet.
    case level3 = 3
    /// CVAI 8.75 % to 11 %: severe, helmet advised.
    case level4 = 4
    /// CVAI above 11 %: very severe, helmet advised.
    case level5 = 5

    /// The level of a CVAI in percent; each boundary belongs to the level above it, except 11 %,
    /// which the scale still counts as level 4 ("> 11" for level 5).
    public init(cvai: Double) {
        switch cvai {
        case ..<3.5: self = .level1
        case ..<6.25: self = .level2
        case ..<8.75: self = .level3
        case ...11: self = .level4
        default: self = .level5
        }
    }

    public static func < (l: SeverityLevel, r: SeverityLevel) -> Bool { l.rawValue < r.rawValue }

    public var description: String {
        switch self {
        case .level1: "level 1 (CVAI < 3.5 %, normal)"
        case .level2: "level 2 (CVAI 3.5–6.25 %, mild)"
        case .level3: "level 3 (CVAI 6.25–8.75 %, moderate)"
        case .level4: "level 4 (CVAI 8.75–11 %, severe)"
        case .level5: "level 5 (CVAI > 11 %, very severe)"
        }
    }
}
