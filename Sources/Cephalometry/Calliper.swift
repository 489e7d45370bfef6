/// What a clinician measured by hand with a calliper and a tape, in millimetres.
public struct CalliperMeasurements: Sendable, Codable, Equatable {
    /// Greatest front-to-back length.
    public var lengthMM: Double
    /// Greatest side-to-side width.
    public var widthMM: Double
    /// Diagonal A, front-left to back-right.
    public var diagonalAMM: Double
    /// Diagonal B, front-right to back-left.
    public var diagonalBMM: Double
    /// Head circumference by tape, when taken.
    public var circumferenceMM: Double?

    /// Hand measurements from their values (millimetres).
    public init(lengthMM: Double, widthMM: Double, diagonalAMM: Double, diagonalBMM: Double, circumferenceMM: Double? = nil) {
        self.lengthMM = lengthMM
        self.widthMM = widthMM
        self.diagonalAMM = diagonalAMM
        self.diagonalBMM = diagonalBMM
        self.circumferenceMM = circumferenceMM
    }

    /// CVAI of the hand-measured diagonals, percent.
    public var cvai: Double { abs(diagonalAMM - diagonalBMM) / max(diagonalAMM, diagonalBMM) * 100 }
    /// CVA of the hand-measured diagonals, millimetres.
    public var cvaMM: Double { abs(diagonalAMM - diagonalBMM) }
    /// Cranial index of the hand-measured extents.
    public var ci: Double { widthMM / lengthMM * 100 }
    /// Severity of the hand-measured CVAI.
    public var severityLevel: SeverityLevel { SeverityLevel(cvai: cvai) }

    /// Infant head extents and diagonals lie in this range (mm); outside, a value was typed
    /// wrong or in other units.
    public static let plausibleExtentMM = 50.0...250.0
    /// Infant head circumferences lie in this range (mm).
    public static let plausibleCircumferenceMM = 250.0...650.0

    /// Throws when a value cannot be an infant's head measured in millimetres.
    public func validate() throws(CephalometryError) {
        for (name, value) in [("length", lengthMM), ("width", widthMM), ("diagonal A", diagonalAMM), ("diagonal B", diagonalBMM)] {
            guard value.isFinite, Self.plausibleExtentMM.contains(value) else {
                throw .invalidCalliper("\(name) \(value) mm is outside 50–250 mm; enter millimetres")
            }
        }
        if let c = circumferenceMM, !(c.isFinite && Self.plausibleCircumferenceMM.contains(c)) {
            throw .invalidCalliper("circumference \(c) mm is outside 250–650 mm; enter millimetres")
        }
    }
}

/// The 3D measurement next to the hand measurement: each difference is 3D minus calliper.
public struct CalliperComparison: Sendable, Codable, Equatable {
    /// The hand values.
    public var calliper: CalliperMeasurements
    /// CVAI from the hand diagonals, percent.
    public var calliperCVAI: Double
    /// CVA from the hand diagonals, millimetres.
    public var calliperCVAMM: Double
    /// Cranial index from the hand extents.
    public var calliperCI: Double
    /// Severity from the hand CVAI.
    public var calliperSeverityLevel: SeverityLevel
    /// CVAI difference, percentage points.
    public var cvaiDifference: Double
    /// Cranial index difference.
    public var ciDifference: Double
    /// Length difference, millimetres.
    public var lengthDifferenceMM: Double
    /// Width difference, millimetres.
    public var widthDifferenceMM: Double
    /// Diagonal A difference, millimetres.
    public var diagonalADifferenceMM: Double
    /// Diagonal B difference, millimetres.
    public var diagonalBDifferenceMM: Double
    /// Circumference difference, millimetres, when the tape value was taken.
    public var circumferenceDifferenceMM: Double?
    /// Whether both give the same CHOA level.
    public var severityAgrees: Bool

    /// Compares `measurement` with validated hand values.
    public init(_ measurement: HeadMeasurement, calliper: CalliperMeasurements) throws(CephalometryError) {
        try calliper.validate()
        self.calliper = calliper
        calliperCVAI = calliper.cvai
        calliperCVAMM = calliper.cvaMM
        calliperCI = calliper.ci
        calliperSeverityLevel = calliper.severityLevel
        cvaiDifference = measurement.cvai - calliper.cvai
        ciDifference = measurement.ci - calliper.ci
        lengthDifferenceMM = measurement.lengthMM - calliper.lengthMM
        widthDifferenceMM = measurement.widthMM - calliper.widthMM
        diagonalADifferenceMM = measurement.diagonalAMM - calliper.diagonalAMM
        diagonalBDifferenceMM = measurement.diagonalBMM - calliper.diagonalBMM
        circumferenceDifferenceMM = calliper.circumferenceMM.map { measurement.circumferenceMM - $0 }
        severityAgrees = measurement.severityLevel == calliper.severityLevel
    }
}
