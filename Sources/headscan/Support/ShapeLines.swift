import Cephalometry
import Foundation

/// The text lines `measure` and `process` print for the 3D measures, the deformity type and
/// the asymmetry map.
enum ShapeLines {
    static func lines(shape: ShapeMeasures?, assessment: ShapeAssessment?, asymmetry: AsymmetrySummary?) -> [String] {
        func f(_ v: Double) -> String { String(format: "%.2f", v) }
        var lines: [String] = []
        if let s = shape {
            let q = s.quadrantVolumes
            lines += [
                "volume          \(String(format: "%.0f", s.cranialVolumeCM3)) cm³ above the reference plane (FL \(String(format: "%.0f", q.frontLeftCM3)), FR \(String(format: "%.0f", q.frontRightCM3)), BL \(String(format: "%.0f", q.backLeftCM3)), BR \(String(format: "%.0f", q.backRightCM3)))",
                "symmetry ratio  anterior \(f(s.anteriorSymmetryRatio)) %, posterior \(f(s.posteriorSymmetryRatio)) %, overall \(f(s.overallSymmetryRatio)) %",
                "radial symmetry \(f(s.radialSymmetryIndexMM)) mm",
                "cranial height  \(f(s.cranialHeightMM)) mm",
                "ear offset      \(f(s.earOffsetMM)) mm (positive: right ear further forward)",
                "longest diag.   \(f(s.longestDiagonalMM)) mm at \(String(format: "%+.1f", s.longestDiagonalAngleDegrees))° (positive: front end to the left)",
            ]
            if let angle = s.foreheadAngleDegrees { lines.append("forehead angle  \(String(format: "%.1f", angle))°") }
        }
        if let a = assessment {
            lines.append("type            \(a.type.rawValue): \(a.clinicianText)")
            lines.append("for parents     \(a.parentText)")
            lines += a.specialistReasons.map { "specialist      \($0)" }
        }
        if let m = asymmetry {
            lines.append(
                "asymmetry map   deepest \(f(-m.maximumInwardMM)) mm flatter, largest \(f(m.maximumOutwardMM)) mm fuller, RMS \(f(m.rmsAboveReferenceMM)) mm; plane tilted \(String(format: "%.1f", m.planeTiltDegrees))°"
            )
        }
        return lines
    }
}
