import Foundation

/// One visit of a patient: when, and what was measured.
public struct Visit: Sendable, Codable, Equatable {
    /// Date of the visit.
    public var date: Date
    /// The measurement taken.
    public var measurement: HeadMeasurement

    /// A visit from its parts.
    public init(date: Date, measurement: HeadMeasurement) {
        self.date = date
        self.measurement = measurement
    }
}

/// How a patient's values change per week over their visits, for monitoring treatment.
///
/// Each rate is the least-squares slope through all visits, so one noisy visit moves it less
/// than a difference of the first and last would.
public struct VisitTrend: Sendable, Codable, Equatable {
    /// Number of visits.
    public var visits: Int
    /// Weeks from the first to the last visit.
    public var spanWeeks: Double
    /// CVAI change, percentage points per week (negative: improving).
    public var cvaiPerWeek: Double
    /// CVA change, millimetres per week.
    public var cvaMMPerWeek: Double
    /// Cranial index change per week.
    public var ciPerWeek: Double
    /// Circumference change, millimetres per week (growth).
    public var circumferenceMMPerWeek: Double
    /// Length change, millimetres per week.
    public var lengthMMPerWeek: Double
    /// Width change, millimetres per week.
    public var widthMMPerWeek: Double
    /// Diagonal A change, millimetres per week.
    public var diagonalAMMPerWeek: Double
    /// Diagonal B change, millimetres per week.
    public var diagonalBMMPerWeek: Double
    /// Severity at the first and at the last visit.
    public var firstSeverity: SeverityLevel
    /// Severity at the last visit.
    public var lastSeverity: SeverityLevel
    /// Change per month (30.44 days) of every measure, by its key in `measure --json`; the 3D
    /// measures only when every visit has them. Nil in trends stored before it was added.
    public var perMonth: [String: Double]?

    static let secondsPerWeek = 7.0 * 24 * 3600

    static var measures: [(String, (HeadMeasurement) -> Double)] {
        [
            ("cvai", \.cvai), ("cvaMM", \.cvaMM), ("ci", \.ci), ("circumferenceMM", \.circumferenceMM), ("lengthMM", \.lengthMM),
            ("widthMM", \.widthMM), ("diagonalAMM", \.diagonalAMM), ("diagonalBMM", \.diagonalBMM),
        ]
    }
    static var shapeMeasures: [(String, (ShapeMeasures) -> Double)] {
        [
            ("cranialVolumeCM3", \.cranialVolumeCM3), ("anteriorSymmetryRatio", \.anteriorSymmetryRatio),
            ("posteriorSymmetryRatio", \.posteriorSymmetryRatio), ("overallSymmetryRatio", \.overallSymmetryRatio),
            ("radialSymmetryIndexMM", \.radialSymmetryIndexMM), ("cranialHeightMM", \.cranialHeightMM), ("earOffsetMM", \.earOffsetMM),
            ("longestDiagonalMM", \.longestDiagonalMM),
        ]
    }

    /// The trend of `visits` (any order); needs two visits on different days.
    public init(_ visits: [Visit]) throws(CephalometryError) {
        let ordered = visits.sorted { $0.date < $1.date }
        guard let first = ordered.first, let last = ordered.last, ordered.count >= 2 else {
            throw .invalidTrend("it needs at least two visits, got \(visits.count)")
        }
        let weeks = ordered.map { $0.date.timeIntervalSince(first.date) / Self.secondsPerWeek }
        let meanWeek = weeks.reduce(0, +) / Double(weeks.count)
        let spread = weeks.reduce(0) { $0 + ($1 - meanWeek) * ($1 - meanWeek) }
        guard spread > 1e-6 else { throw .invalidTrend("all visits are on the same date; a rate needs visits on different days") }
        func slope(_ value: (HeadMeasurement) -> Double) -> Double {
            let values = ordered.map { value($0.measurement) }
            let mean = values.reduce(0, +) / Double(values.count)
            return zip(weeks, values).reduce(0) { $0 + ($1.0 - meanWeek) * ($1.1 - mean) } / spread
        }
        self.visits = ordered.count
        spanWeeks = weeks[weeks.count - 1]
        cvaiPerWeek = slope(\.cvai)
        cvaMMPerWeek = slope(\.cvaMM)
        ciPerWeek = slope(\.ci)
        circumferenceMMPerWeek = slope(\.circumferenceMM)
        lengthMMPerWeek = slope(\.lengthMM)
        widthMMPerWeek = slope(\.widthMM)
        diagonalAMMPerWeek = slope(\.diagonalAMM)
        diagonalBMMPerWeek = slope(\.diagonalBMM)
        firstSeverity = first.measurement.severityLevel
        lastSeverity = last.measurement.severityLevel
        let weeksPerMonth = 30.4375 / 7
        var monthly: [String: Double] = [:]
        for (key, value) in Self.measures { monthly[key] = slope(value) * weeksPerMonth }
        let shapes = ordered.compactMap(\.measurement.shape)
        if shapes.count == ordered.count {
            for (key, value) in Self.shapeMeasures { monthly[key] = slope { value($0.shape!) } * weeksPerMonth }
        }
        perMonth = monthly
    }
}
