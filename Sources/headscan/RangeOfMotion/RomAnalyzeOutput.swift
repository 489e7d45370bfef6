import Foundation
import RangeOfMotion

/// What `headscan rom analyze` prints. Keys without a value are written as null, so every
/// output has the same shape.
struct RomAnalyzeOutput: Encodable {
    let analysis: RangeOfMotionAnalysis
    let sideGuessed: Bool
    var stored: String?
    var report: [String]?

    init(_ analysis: RangeOfMotionAnalysis, sideGuessed: Bool) {
        self.analysis = analysis
        self.sideGuessed = sideGuessed
    }

    private enum Key: String, CodingKey {
        case side, sideGuessed, accepted, minAngle, maxAngle, minFrame, maxFrame, minTime, maxTime, flexion
        case `extension`, neutralZero, framesPassed, framesTotal, passedShare, requiredShare, rejections, refusal
        case warnings, flexionSense, frames, stored, report
    }

    private struct Frame: Encodable {
        let frame: FrameResult
        private enum Key: String, CodingKey { case index, t, angle, smoothedAngle, passed, reason }
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

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        let a = analysis, q = a.quality, nz = a.neutralZero
        try c.encode(a.side.rawValue, forKey: .side)
        try c.encode(sideGuessed, forKey: .sideGuessed)
        try c.encode(a.accepted, forKey: .accepted)
        try c.encode(a.minimum?.angle, forKey: .minAngle)
        try c.encode(a.maximum?.angle, forKey: .maxAngle)
        try c.encode(a.minimum?.index, forKey: .minFrame)
        try c.encode(a.maximum?.index, forKey: .maxFrame)
        try c.encode(a.minimum?.time, forKey: .minTime)
        try c.encode(a.maximum?.time, forKey: .maxTime)
        try c.encode(nz?.flexionDegrees, forKey: .flexion)
        try c.encode(nz?.extensionDegrees, forKey: .extension)
        try c.encode(nz?.notation, forKey: .neutralZero)
        try c.encode(q.framesPassed, forKey: .framesPassed)
        try c.encode(q.framesTotal, forKey: .framesTotal)
        try c.encode(q.passedShare, forKey: .passedShare)
        try c.encode(q.requiredShare, forKey: .requiredShare)
        try c.encode(Dictionary(uniqueKeysWithValues: q.rejections.map { ($0.key.rawValue, $0.value) }), forKey: .rejections)
        try c.encode(a.accepted ? nil : q.refusalText, forKey: .refusal)
        try c.encode(a.warnings.map(\.message), forKey: .warnings)
        try c.encode(a.flexionSense, forKey: .flexionSense)
        try c.encode(a.frames.map(Frame.init), forKey: .frames)
        try c.encode(stored, forKey: .stored)
        try c.encode(report, forKey: .report)
    }

    var text: String {
        let a = analysis, q = a.quality
        func deg(_ v: Double) -> String { String(format: "%.1f°", v) }
        var lines: [String] = []
        let sideNote = sideGuessed ? " (the side seen best; choose with --side)" : ""
        if a.accepted, let nz = a.neutralZero, let low = a.minimum, let high = a.maximum {
            lines.append("\(a.side.rawValue) knee\(sideNote): extension/flexion \(nz.notation) (neutral-zero)")
            lines.append("  smallest angle  \(deg(low.angle)) at frame \(low.index) (\(String(format: "%.2f", low.time)) s)")
            lines.append("  largest angle   \(deg(high.angle)) at frame \(high.index) (\(String(format: "%.2f", high.time)) s)")
            lines.append("  flexion \(deg(nz.flexionDegrees)), extension \(deg(nz.extensionDegrees))")
        } else {
            lines.append("\(a.side.rawValue) knee\(sideNote): not measured, \(q.refusalText)")
        }
        lines.append("  frames passed   \(q.framesPassed) of \(q.framesTotal) (\(Int((q.passedShare * 100).rounded())) %), needed \(Int((q.requiredShare * 100).rounded())) %: \(a.accepted ? "accepted" : "refused")")
        if !q.rejectionPhrases.isEmpty { lines.append("  rejected        " + q.rejectionPhrases.joined(separator: ", ")) }
        lines += a.warnings.map { "warning: \($0.message)" }
        if let stored { lines.append("stored \(stored)") }
        for path in report ?? [] { lines.append("wrote \(path)") }
        return lines.joined(separator: "\n")
    }
}
