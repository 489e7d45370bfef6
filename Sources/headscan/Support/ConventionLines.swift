import Cephalometry
import Foundation

/// The slice measures under every convention, one line each, for the text output.
enum ConventionLines {
    static func lines(_ conventions: [ConventionMeasures]?) -> [String] {
        guard let conventions, !conventions.isEmpty else { return [] }
        func f(_ v: Double) -> String { String(format: "%.2f", v) }
        return ["by convention   (CVAI by the longer diagonal / by the shorter; CI; slice height)"]
            + conventions.map { c in
                let name = c.convention.description.padding(toLength: 26, withPad: " ", startingAt: 0)
                return "  \(name) CVAI \(f(c.cvai)) / \(f(c.cvaiShorterDiagonal)) %, CVA \(f(c.cvaMM)) mm, CI \(f(c.ci)), "
                    + "circumference \(f(c.circumferenceMM)) mm, at \(f(c.sliceHeightMM)) mm"
            }
    }
}
