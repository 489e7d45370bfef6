import Foundation

/// The head's deformity type, from the cranial index and the CVAI.
public enum HeadShapeClass: String, Sendable, Codable, CaseIterable {
    /// Within the thresholds on both.
    case normal
    /// Asymmetric (CVAI at CHOA level 2 or above), cranial index normal.
    case plagiocephaly
    /// Short and wide, symmetric.
    case brachycephaly
    /// Long and narrow, symmetric.
    case dolichocephaly
    /// Asymmetric and short and wide ("asymmetric brachycephaly").
    case plagiocephalyWithBrachycephaly
    /// Asymmetric and long and narrow.
    case plagiocephalyWithDolichocephaly
}

/// How marked a brachycephaly is, on the cranial-index scale STARscanner clinics use.
public enum BrachycephalySeverity: String, Sendable, Codable, CaseIterable {
    case mild, moderate, severe
}

/// Type, severity and the words for parent and clinician; never a diagnosis of
/// craniosynostosis, only a referral hint when the shape looks like one.
public struct ShapeAssessment: Sendable, Codable, Equatable {
    /// The deformity type.
    public var type: HeadShapeClass
    /// The CHOA plagiocephaly level (1 = within normal limits).
    public var choaLevel: SeverityLevel
    /// The brachycephaly grade; nil when the cranial index is not above the threshold.
    public var brachycephaly: BrachycephalySeverity?
    /// Whether the cranial index is below the dolichocephaly threshold (no published grades).
    public var dolichocephaly: Bool
    /// Why a specialist should look at the head; empty when nothing suggests it.
    public var specialistReasons: [String]
    /// One or two plain sentences for the parent.
    public var parentText: String
    /// One sentence with the values for the clinician.
    public var clinicianText: String

    /// Grades `measurement` with `thresholds` (checked by the caller with `validate()`).
    public init(_ measurement: HeadMeasurement, thresholds: ShapeThresholds = .init()) {
        let level = thresholds.choaLevel(cvai: measurement.cvai)
        let ci = measurement.ci
        let bands = thresholds.brachycephalyCI
        let brachy: BrachycephalySeverity? =
            ci <= bands[0] ? nil : ci <= bands[1] ? .mild : ci <= bands[2] ? .moderate : .severe
        let dolicho = ci < thresholds.dolichocephalyCI
        let plagio = level > .level1
        type =
            switch (plagio, brachy != nil, dolicho) {
            case (true, true, _): .plagiocephalyWithBrachycephaly
            case (true, _, true): .plagiocephalyWithDolichocephaly
            case (true, _, _): .plagiocephaly
            case (false, true, _): .brachycephaly
            case (false, _, true): .dolichocephaly
            default: .normal
            }
        choaLevel = level
        brachycephaly = brachy
        dolichocephaly = dolicho
        specialistReasons = Self.referralReasons(measurement, thresholds: thresholds)
        parentText = Self.parentText(type: type, level: level, brachy: brachy, side: measurement.flattenedSide, refer: !specialistReasons.isEmpty)
        clinicianText = Self.clinicianText(measurement, type: type, level: level, brachy: brachy)
    }

    static func referralReasons(_ m: HeadMeasurement, thresholds: ShapeThresholds) -> [String] {
        var reasons: [String] = []
        if let angle = m.shape?.foreheadAngleDegrees, angle < thresholds.foreheadAngleDegrees {
            reasons.append(
                String(
                    format: "the forehead is pointed (angle %.0f°, below %.0f°), as in a triangular forehead", angle, thresholds.foreheadAngleDegrees)
            )
        }
        if m.ci < thresholds.specialistCI[0] {
            reasons.append(String(format: "the head is unusually long and narrow (cranial index %.1f, below %.0f)", m.ci, thresholds.specialistCI[0]))
        } else if m.ci > thresholds.specialistCI[1] {
            reasons.append(String(format: "the head is unusually short and wide (cranial index %.1f, above %.0f)", m.ci, thresholds.specialistCI[1]))
        }
        return reasons
    }

    static func parentText(type: HeadShapeClass, level: SeverityLevel, brachy: BrachycephalySeverity?, side: FlattenedSide, refer: Bool) -> String {
        let flat = side == .none ? "one side of the back of the head is flatter" : "the back of the head is flatter on the \(side.rawValue)"
        let grade = ["", "", "mildly", "moderately", "markedly", "very markedly"][level.rawValue]
        var text =
            switch type {
            case .normal: "The head shape is within the usual range."
            case .plagiocephaly: "The head is \(grade) uneven: \(flat)."
            case .brachycephaly: "The back of the head is \(brachy?.rawValue ?? "") flat across its width, so the head is short and wide."
            case .dolichocephaly: "The head is longer and narrower than usual."
            case .plagiocephalyWithBrachycephaly: "The head is \(grade) uneven, \(flat), and it is short and wide."
            case .plagiocephalyWithDolichocephaly: "The head is \(grade) uneven, \(flat), and it is long and narrow."
            }
        if type != .normal { text += " Your therapist will explain what this means and what helps." }
        if refer { text += " Your therapist will also ask a specialist to look at the head shape." }
        return text
    }

    static func clinicianText(_ m: HeadMeasurement, type: HeadShapeClass, level: SeverityLevel, brachy: BrachycephalySeverity?) -> String {
        var parts = [
            String(format: "CHOA level %d (CVAI %.1f %%", level.rawValue, m.cvai)
                + (m.flattenedSide == .none ? ")" : ", \(m.flattenedSide.rawValue) posterior flattening)")
        ]
        if let brachy {
            parts.append(String(format: "%@ brachycephaly (CI %.1f)", brachy.rawValue, m.ci))
        } else {
            parts.append(
                String(format: "CI %.1f", m.ci) + (type == .dolichocephaly || type == .plagiocephalyWithDolichocephaly ? ", dolichocephalic" : ""))
        }
        if let shape = m.shape {
            parts.append(
                String(
                    format: "PSR %.1f %%, ASR %.1f %%, RSI %.1f mm", shape.posteriorSymmetryRatio, shape.anteriorSymmetryRatio,
                    shape.radialSymmetryIndexMM))
        }
        return parts.joined(separator: "; ") + "."
    }
}
