/// An analysis in the flat form scripts read (`headscan rom analyze --json`): every key is
/// always present, null when it has no value, so each output has the same shape.
public struct RangeOfMotionSummary: Encodable, Sendable {
    public var analysis: RangeOfMotionAnalysis
    /// Whether the side was chosen from the poses rather than given.
    public var sideGuessed = false
    /// Where the measurement was stored, if it was.
    public var stored: String?
    /// The report files written, if any.
    public var report: [String]?

    public init(_ analysis: RangeOfMotionAnalysis, sideGuessed: Bool = false) {
        self.analysis = analysis
        self.sideGuessed = sideGuessed
    }

    /// Every top-level key, in the order of the documentation.
    public static let keys = Key.allCases.map(\.rawValue)

    public enum Key: String, CodingKey, CaseIterable {
        case side, sideGuessed, accepted, minAngle, maxAngle, minAngleUncertainty, maxAngleUncertainty, minFrame, maxFrame, minTime, maxTime, flexion
        case `extension`, flexionAtLeast, extensionAtLeast, neutralZero, framesPassed, framesTotal, passedShare, requiredShare, rejections, refusal
        case warnings, flexionSense, slantDegrees, slantUncertainty, frames, stored, report
    }

    /// One frame: t, angle, smoothedAngle, passed, reason (null when passed).
    private struct Frame: Encodable {
        let frame: FrameResult
        enum Key: String, CodingKey { case index, t, angle, smoothedAngle, passed, reason }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(frame.index, forKey: .index)
            try c.encode(frame.time, forKey: .t)
            try c.encode(frame.angle, forKey: .angle)
            try c.encode(frame.smoothedAngle, forKey: .smoothedAngle)
            try c.encode(frame.passed, forKey: .passed)
            try c.encode(frame.reason?.rawValue, forKey: .reason)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        let a = analysis, q = a.quality, nz = a.neutralZero
        try c.encode(a.side.rawValue, forKey: .side)
        try c.encode(sideGuessed, forKey: .sideGuessed)
        try c.encode(a.accepted, forKey: .accepted)
        try c.encode(a.minimum?.angle, forKey: .minAngle)
        try c.encode(a.maximum?.angle, forKey: .maxAngle)
        try c.encode(a.minimum?.uncertainty, forKey: .minAngleUncertainty)
        try c.encode(a.maximum?.uncertainty, forKey: .maxAngleUncertainty)
        try c.encode(a.minimum?.index, forKey: .minFrame)
        try c.encode(a.maximum?.index, forKey: .maxFrame)
        try c.encode(a.minimum?.time, forKey: .minTime)
        try c.encode(a.maximum?.time, forKey: .maxTime)
        try c.encode(nz?.flexionDegrees, forKey: .flexion)
        try c.encode(nz?.extensionDegrees, forKey: .extension)
        try c.encode(nz?.flexionAtLeast, forKey: .flexionAtLeast)
        try c.encode(nz?.extensionAtLeast, forKey: .extensionAtLeast)
        try c.encode(nz?.notation, forKey: .neutralZero)
        try c.encode(q.framesPassed, forKey: .framesPassed)
        try c.encode(q.framesTotal, forKey: .framesTotal)
        try c.encode(q.passedShare, forKey: .passedShare)
        try c.encode(q.requiredShare, forKey: .requiredShare)
        try c.encode(Dictionary(uniqueKeysWithValues: q.rejections.map { ($0.key.rawValue, $0.value) }), forKey: .rejections)
        try c.encode(a.accepted ? nil : q.refusalText, forKey: .refusal)
        try c.encode(a.warnings.map(\.message), forKey: .warnings)
        try c.encode(a.flexionSense, forKey: .flexionSense)
        try c.encode(a.slant?.viewDegrees, forKey: .slantDegrees)
        try c.encode(a.slant?.uncertaintyDegrees, forKey: .slantUncertainty)
        try c.encode(a.frames.map(Frame.init), forKey: .frames)
        try c.encode(stored, forKey: .stored)
        try c.encode(report, forKey: .report)
    }
}
