import Cephalometry
import Foundation

/// A measure the report can chart over a patient's visits.
public enum TrendMeasure: String, Sendable, Codable, CaseIterable {
    case cranialIndex, circumference, posteriorSymmetryRatio, anteriorSymmetryRatio, overallSymmetryRatio
    case radialSymmetryIndex, cranialVolume, cranialHeight

    /// The chart's title and unit.
    public var title: (name: String, unit: String) {
        switch self {
        case .cranialIndex: ("Cranial index", "")
        case .circumference: ("Circumference", "mm")
        case .posteriorSymmetryRatio: ("Posterior symmetry ratio", "%")
        case .anteriorSymmetryRatio: ("Anterior symmetry ratio", "%")
        case .overallSymmetryRatio: ("Overall symmetry ratio", "%")
        case .radialSymmetryIndex: ("Radial symmetry index", "mm")
        case .cranialVolume: ("Cranial volume", "cm³")
        case .cranialHeight: ("Cranial height", "mm")
        }
    }

    /// The visit's value; nil when that visit was measured before HeadScan reported it.
    public func value(_ visit: VisitPoint) -> Double? {
        switch self {
        case .cranialIndex: visit.ci
        case .circumference: visit.circumferenceMM
        case .posteriorSymmetryRatio: visit.shape?.posteriorSymmetryRatio
        case .anteriorSymmetryRatio: visit.shape?.anteriorSymmetryRatio
        case .overallSymmetryRatio: visit.shape?.overallSymmetryRatio
        case .radialSymmetryIndex: visit.shape?.radialSymmetryIndexMM
        case .cranialVolume: visit.shape?.cranialVolumeCM3
        case .cranialHeight: visit.shape?.cranialHeightMM
        }
    }
}

/// What a clinic's reports show, and the thresholds they grade by.
///
/// JSON form (every key optional): `{"shapeMeasures":true,"asymmetryMap":true,
/// "trendCharts":["cranialIndex","circumference","posteriorSymmetryRatio","cranialVolume"],
/// "thresholds":{…}}`; the thresholds as `ShapeThresholds` documents them.
public struct ReportSettings: Sendable, Codable, Equatable {
    /// Whether the volumes, symmetry ratios and other 3D measures are listed.
    public var shapeMeasures: Bool
    /// Whether the asymmetry map is drawn.
    public var asymmetryMap: Bool
    /// The small charts under the CVAI chart, in order (at most four fit the page).
    public var trendCharts: [TrendMeasure]
    /// The thresholds for the deformity type and severity.
    public var thresholds: ShapeThresholds
    /// The convention the report's slice values (CVAI, CI, diagonals, circumference, CHOA
    /// level) are given by; the others are named beside it.
    public var convention: SliceConvention

    /// Everything shown, four charts, the published thresholds.
    public init(
        shapeMeasures: Bool = true, asymmetryMap: Bool = true,
        trendCharts: [TrendMeasure] = [.cranialIndex, .circumference, .posteriorSymmetryRatio, .cranialVolume],
        thresholds: ShapeThresholds = .init(), convention: SliceConvention = .longestOutline
    ) {
        self.shapeMeasures = shapeMeasures
        self.asymmetryMap = asymmetryMap
        self.trendCharts = trendCharts
        self.thresholds = thresholds
        self.convention = convention
    }

    /// The name of the settings file in a scan library's folder.
    public static let fileName = "report-settings.json"

    private enum CodingKeys: String, CodingKey { case shapeMeasures, asymmetryMap, trendCharts, thresholds, convention }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = ReportSettings()
        self.init(
            shapeMeasures: try c.decodeIfPresent(Bool.self, forKey: .shapeMeasures) ?? d.shapeMeasures,
            asymmetryMap: try c.decodeIfPresent(Bool.self, forKey: .asymmetryMap) ?? d.asymmetryMap,
            trendCharts: try c.decodeIfPresent([TrendMeasure].self, forKey: .trendCharts) ?? d.trendCharts,
            thresholds: try c.decodeIfPresent(ShapeThresholds.self, forKey: .thresholds) ?? d.thresholds,
            convention: try c.decodeIfPresent(SliceConvention.self, forKey: .convention) ?? d.convention)
    }

    /// Reads and checks a settings file.
    public static func decode(json data: Data) throws(ReportSettingsError) -> ReportSettings {
        let settings: ReportSettings
        do {
            settings = try JSONDecoder().decode(ReportSettings.self, from: data)
        } catch {
            let names = TrendMeasure.allCases.map(\.rawValue).joined(separator: ", ")
            let conventions = SliceConvention.allCases.map(\.rawValue).joined(separator: ", ")
            throw ReportSettingsError(
                "not a report settings JSON object; give any of shapeMeasures, asymmetryMap (true/false), trendCharts (from \(names)), thresholds and convention (one of \(conventions)) (\(error))"
            )
        }
        do {
            try settings.thresholds.validate()
        } catch {
            throw ReportSettingsError(error.description)
        }
        guard settings.trendCharts.count <= 4 else {
            throw ReportSettingsError("trendCharts lists \(settings.trendCharts.count) charts; at most 4 fit the page")
        }
        return settings
    }
}

/// Why a report settings file cannot be used.
public struct ReportSettingsError: Error, Equatable, CustomStringConvertible, LocalizedError {
    public var description: String
    init(_ why: String) { description = "cannot use the report settings: \(why)" }
    public var errorDescription: String? { description }
}
