import Foundation

/// Errors from geometric fits and solvers.
public enum GeometryError: Error, Equatable, CustomStringConvertible {
    /// The system has no unique solution (for example, collinear points for a homography).
    case singular
    /// Fewer inputs than the fit needs, or inputs of mismatched lengths.
    case notEnoughPoints(needed: Int, got: Int)

    public var description: String {
        switch self {
        case .singular:
            "the points are degenerate (collinear or repeated); no unique solution exists"
        case .notEnoughPoints(let needed, let got):
            "the fit needs at least \(needed) point pairs but got \(got)"
        }
    }
}

// Apps show `localizedDescription`; without this they would show a generic sentence instead
// of the message that says what to do.
extension GeometryError: LocalizedError {
    public var errorDescription: String? { description }
}
