import Foundation
import RangeOfMotion

/// What `headscan rom analyze` prints as text; `--json` prints the summary itself.
extension RangeOfMotionSummary: TextReport {
    var text: String {
        let a = analysis, q = a.quality
        func deg(_ v: Double) -> String { String(format: "%.1f°", v) }
        func end(_ e: ExtremeFrame, unseen: Bool, beyond: String) -> String {
            unseen ? deg(e.angle) + " or \(beyond) (the leg left the picture there)" : deg(e.angle) + (e.uncertainty.map { " ± " + deg($0) } ?? "")
        }
        func bound(_ atLeast: Bool) -> String { atLeast ? "at least " : "" }
        var lines: [String] = []
        let sideNote = sideGuessed ? " (the side seen best; choose with --side)" : ""
        if a.accepted, let nz = a.neutralZero, let low = a.minimum, let high = a.maximum {
            lines.append("\(a.side.rawValue) knee\(sideNote): extension/flexion \(nz.notation) (neutral-zero)")
            lines.append(
                "  smallest angle  \(end(low, unseen: a.mostBentUnseen, beyond: "less")) at frame \(low.index) (\(String(format: "%.2f", low.time)) s)"
            )
            lines.append(
                "  largest angle   \(end(high, unseen: a.straightestUnseen, beyond: "more")) at frame \(high.index) (\(String(format: "%.2f", high.time)) s)"
            )
            lines.append(
                "  flexion \(bound(nz.flexionAtLeast))\(deg(nz.flexionDegrees)), extension \(bound(nz.extensionAtLeast))\(deg(nz.extensionDegrees))")
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
