import Foundation
import RangeOfMotion

/// What `headscan rom analyze` prints as text; `--json` prints the summary itself.
extension RangeOfMotionSummary: TextReport {
    var text: String {
        let a = analysis, q = a.quality
        func deg(_ v: Double) -> String { String(format: "%.1f°", v) }
        var lines: [String] = []
        let sideNote = sideGuessed ? " (the side seen best; choose with --side)" : ""
        if a.accepted, let nz = a.neutralZero, let low = a.minimum, let high = a.maximum,
            let lowText = a.smallestAngleText(degrees: deg), let highText = a.largestAngleText(degrees: deg)
        {
            lines.append("\(a.side.rawValue) knee\(sideNote): extension/flexion \(nz.notation) (neutral-zero)")
            lines.append(
                "  smallest angle  \(lowText) at frame \(low.index) (\(String(format: "%.2f", low.time)) s)"
            )
            lines.append(
                "  largest angle   \(highText) at frame \(high.index) (\(String(format: "%.2f", high.time)) s)"
            )
            lines.append(
                "  flexion \(nz.flexionText(degrees: deg)), extension \(nz.extensionText(degrees: deg))")
        } else {
            lines.append("\(a.side.rawValue) knee\(sideNote): not measured, the video is refused")
        }
        lines.append(
            "  frames passed   \(q.framesPassed) of \(q.framesTotal) (\(Int((q.passedShare * 100).rounded())) %), needed \(Int((q.requiredShare * 100).rounded())) %: \(a.accepted ? "accepted" : "refused")"
        )
        if !q.rejectionPhrases.isEmpty { lines.append("  rejected        " + q.rejectionPhrases.joined(separator: ", ")) }
        if !a.accepted { lines.append("  " + QualitySummary.refusalAdvice) }
        lines += a.warnings.map { "warning: \($0.message)" }
        if let stored { lines.append("stored \(stored)") }
        for path in report ?? [] { lines.append("wrote \(path)") }
        return lines.joined(separator: "\n")
    }
}
