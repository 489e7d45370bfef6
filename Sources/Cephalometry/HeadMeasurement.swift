import Foundation

/// Which side of the back of the head is flatter.
public enum FlattenedSide: String, Sendable, Codable, CaseIterable {
    /// The left posterior quadrant (diagonal B, front-right to back-left, is the shorter).
    case left
    /// The right posterior quadrant (diagonal A, front-left to back-right, is the shorter).
    case right
    /// The diagonals agree within the measurement's repeatability.
    case none

    /// Below this CVAI (percent) the difference of the diagonals is within what moving the
    /// landmarks by a couple of millimetres changes, so no side is named.
    public static let repeatabilityCVAI = 0.5

    /// The flatter side given both diagonals: the shorter diagonal ends at the flat quadrant.
    public init(diagonalA: Double, diagonalB: Double) {
        let cvai = abs(diagonalA - diagonalB) / max(diagonalA, diagonalB) * 100
        if cvai < Self.repeatabilityCVAI {
            self = .none
        } else {
            self = diagonalA < diagonalB ? .right : .left
        }
    }
}

/// The clinical measures of one head, in clinicians' units, with the doubts found.
public struct HeadMeasurement: Sendable, Codable, Equatable {
    /// Cranial vault asymmetry index, percent: |A − B| / max(A, B) × 100.
    public var cvai: Double
    /// Cranial vault asymmetry |A − B|, millimetres.
    public var cvaMM: Double
    /// Cranial index, largest width / largest length × 100.
    public var ci: Double
    /// Perimeter of the measured slice, millimetres.
    public var circumferenceMM: Double
    /// Diagonal A, front-left to back-right at 30° from the mid-sagittal axis, millimetres.
    public var diagonalAMM: Double
    /// Diagonal B, front-right to back-left, millimetres.
    public var diagonalBMM: Double
    /// Largest extent along the mid-sagittal axis, millimetres.
    public var lengthMM: Double
    /// Largest extent across the mid-sagittal axis, millimetres.
    public var widthMM: Double
    /// The CHOA severity level of the CVAI.
    public var severityLevel: SeverityLevel
    /// The flatter posterior side.
    public var flattenedSide: FlattenedSide
    /// Height of the measured slice above the reference plane, millimetres.
    public var sliceHeightMM: Double
    /// Reasons to trust the values less.
    public var warnings: [MeasurementWarning]
    /// Volumes, symmetry ratios and the other 3D measures; nil in records measured before
    /// HeadScan reported them.
    public var shape: ShapeMeasures?
    /// The slice measures under every convention clinics use (the first is the one above);
    /// nil in records measured before HeadScan reported them.
    public var conventions: [ConventionMeasures]?
    /// The 95 % intervals of CVAI, CVA, CI and circumference (longest outline), when the
    /// landmarks' and the surface's uncertainties were known (a processed session).
    public var intervals: MeasurementIntervals?

    /// Measures from the diagonals, extents and perimeter, all in metres.
    public init(
        diagonalA: Double, diagonalB: Double, length: Double, width: Double, perimeter: Double,
        sliceHeight: Double = 0, warnings: [MeasurementWarning] = []
    ) {
        diagonalAMM = diagonalA * 1000
        diagonalBMM = diagonalB * 1000
        cvaMM = abs(diagonalA - diagonalB) * 1000
        cvai = abs(diagonalA - diagonalB) / max(diagonalA, diagonalB) * 100
        ci = width / length * 100
        lengthMM = length * 1000
        widthMM = width * 1000
        circumferenceMM = perimeter * 1000
        severityLevel = SeverityLevel(cvai: cvai)
        flattenedSide = FlattenedSide(diagonalA: diagonalA, diagonalB: diagonalB)
        sliceHeightMM = sliceHeight * 1000
        self.warnings = warnings
    }
}
