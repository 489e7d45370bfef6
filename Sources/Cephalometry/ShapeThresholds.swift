import Foundation

/// The thresholds that turn measures into a deformity type and severity; a clinic may set its
/// own. Defaults and their sources: docs/measures.md.
///
/// JSON form (every key optional; missing keys keep the default):
/// `{"choaCVAI":[3.5,6.25,8.75,11],"brachycephalyCI":[90,93,97],"dolichocephalyCI":76,
///   "foreheadAngleDegrees":125,"specialistCI":[70,105]}`.
public struct ShapeThresholds: Sendable, Codable, Equatable {
    /// CVAI (%) where CHOA levels 2, 3, 4 and 5 begin; level 5 begins above the last.
    public var choaCVAI: [Double]
    /// Cranial index above which brachycephaly is mild, moderate and severe.
    public var brachycephalyCI: [Double]
    /// Cranial index below which the head is long and narrow (dolichocephaly).
    public var dolichocephalyCI: Double
    /// A forehead angle below this (degrees) is pointed enough for a specialist to look.
    public var foreheadAngleDegrees: Double
    /// A cranial index outside this range is unusual enough for a specialist to look.
    public var specialistCI: [Double]

    /// The published defaults: CHOA 3.5/6.25/8.75/11, brachycephaly above 90/93/97,
    /// dolichocephaly below 76, a forehead angle below 125°, a cranial index below 70 or above 105.
    public init(
        choaCVAI: [Double] = [3.5, 6.25, 8.75, 11], brachycephalyCI: [Double] = [90, 93, 97], dolichocephalyCI: Double = 76,
        foreheadAngleDegrees: Double = 125, specialistCI: [Double] = [70, 105]
    ) {
        self.choaCVAI = choaCVAI
        self.brachycephalyCI = brachycephalyCI
        self.dolichocephalyCI = dolichocephalyCI
        self.foreheadAngleDegrees = foreheadAngleDegrees
        self.specialistCI = specialistCI
    }

    private enum CodingKeys: String, CodingKey {
        case choaCVAI, brachycephalyCI, dolichocephalyCI, foreheadAngleDegrees, specialistCI
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = ShapeThresholds()
        self.init(
            choaCVAI: try c.decodeIfPresent([Double].self, forKey: .choaCVAI) ?? d.choaCVAI,
            brachycephalyCI: try c.decodeIfPresent([Double].self, forKey: .brachycephalyCI) ?? d.brachycephalyCI,
            dolichocephalyCI: try c.decodeIfPresent(Double.self, forKey: .dolichocephalyCI) ?? d.dolichocephalyCI,
            foreheadAngleDegrees: try c.decodeIfPresent(Double.self, forKey: .foreheadAngleDegrees) ?? d.foreheadAngleDegrees,
            specialistCI: try c.decodeIfPresent([Double].self, forKey: .specialistCI) ?? d.specialistCI)
    }

    /// Checks the thresholds can grade a head: the right counts, rising, finite, and the
    /// cranial-index bands in order.
    public func validate() throws(CephalometryError) {
        func rising(_ values: [Double], count: Int, _ name: String) throws(CephalometryError) {
            guard values.count == count, values.allSatisfy(\.isFinite), zip(values, values.dropFirst()).allSatisfy({ $0 < $1 }) else {
                throw .invalidThresholds("\(name) needs \(count) rising numbers, got \(values)")
            }
        }
        try rising(choaCVAI, count: 4, "choaCVAI")
        try rising(brachycephalyCI, count: 3, "brachycephalyCI")
        try rising(specialistCI, count: 2, "specialistCI")
        guard dolichocephalyCI.isFinite, foreheadAngleDegrees.isFinite, dolichocephalyCI < brachycephalyCI[0] else {
            throw .invalidThresholds("dolichocephalyCI must be a number below brachycephalyCI's first value")
        }
        guard choaCVAI[0] > 0 else { throw .invalidThresholds("choaCVAI must start above 0") }
    }

    /// Reads and checks a clinic's thresholds file.
    public static func decode(json data: Data) throws(CephalometryError) -> ShapeThresholds {
        let thresholds: ShapeThresholds
        do {
            thresholds = try JSONDecoder().decode(ShapeThresholds.self, from: data)
        } catch {
            throw .invalidThresholds(
                "not a thresholds JSON object: give any of choaCVAI, brachycephalyCI, dolichocephalyCI, foreheadAngleDegrees, specialistCI (\(error))"
            )
        }
        try thresholds.validate()
        return thresholds
    }

    /// The CHOA level of `cvai` under these boundaries (each boundary belongs to the level
    /// above it, except the last, which still counts as level 4).
    public func choaLevel(cvai: Double) -> SeverityLevel {
        if cvai < choaCVAI[0] { return .level1 }
        if cvai < choaCVAI[1] { return .level2 }
        if cvai < choaCVAI[2] { return .level3 }
        return cvai <= choaCVAI[3] ? .level4 : .level5
    }
}
