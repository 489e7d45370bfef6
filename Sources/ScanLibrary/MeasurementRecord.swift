import Cephalometry
import Foundation

/// `measurement.json`: the 3D measurement of the scan; its presence marks a session as
/// measured.
public struct MeasurementRecord: LibraryDocument {
    public static let fileName = "measurement.json"
    /// Version 2 adds `options`; version 1 files read as measured with the default options.
    public static let currentVersion = 2
    public static let fieldNames: Set<String> = [
        "measurement", "calliper", "landmarks", "meshFile", "measuredAt", "landmarksSource", "landmarkEstimates", "automaticLandmarks",
        "options",
    ]

    /// CVAI, CVA, cranial index, circumference, severity and warnings.
    public var measurement: HeadMeasurement
    /// The comparison with the hand measurement, when patient data was entered.
    public var calliper: CalliperComparison?
    /// The landmarks the head was measured with (metres, the mesh's frame).
    public var landmarks: HeadLandmarks
    /// The mesh measured, relative to the session folder (`head.ply`).
    public var meshFile: String?
    /// When it was measured.
    public var measuredAt: Date
    /// Where the landmarks came from.
    public var landmarksSource: LandmarkSource?
    /// Per landmark, how its picks were combined: spread and lifting residuals.
    public var landmarkEstimates: [Landmark: LandmarkEstimate]?
    /// The landmarks found on the head, with their confidence and best frames.
    public var automaticLandmarks: AutomaticLandmarks?
    /// The settings it was measured with (the slices' start above the reference plane, …);
    /// absent in files written before they were kept, which were measured with the defaults.
    public var options: MeasurementOptions?

    /// The settings to measure this record's mesh again with, to the same figures.
    public var measuredWith: MeasurementOptions { options ?? MeasurementOptions() }

    /// A measurement record from its values.
    public init(
        measurement: HeadMeasurement, calliper: CalliperComparison? = nil, landmarks: HeadLandmarks,
        meshFile: String? = ScanSession.meshFileName, measuredAt: Date, landmarksSource: LandmarkSource? = nil,
        landmarkEstimates: [Landmark: LandmarkEstimate]? = nil, automaticLandmarks: AutomaticLandmarks? = nil, options: MeasurementOptions? = nil
    ) {
        self.options = options
        self.automaticLandmarks = automaticLandmarks
        self.landmarksSource = landmarksSource
        self.landmarkEstimates = landmarkEstimates
        self.measurement = measurement
        self.calliper = calliper
        self.landmarks = landmarks
        self.meshFile = meshFile
        self.measuredAt = measuredAt
    }
}
