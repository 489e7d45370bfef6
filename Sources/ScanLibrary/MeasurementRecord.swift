import Cephalometry
import Foundation

/// `measurement.json`: the 3D measurement of the scan; its presence marks a session as
/// measured.
public struct MeasurementRecord: LibraryDocument {
    public static let fileName = "measurement.json"
    public static let currentVersion = 1
    public static let fieldNames: Set<String> = [
        "measurement", "calliper", "landmarks", "meshFile", "measuredAt", "landmarksSource", "landmarkEstimates", "automaticLandmarks",
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
    /// Where the landmarks came from: "picks" (lifted from frames), "points" (given in 3D),
    /// "automatic" (found on the head) or "picks+automatic".
    public var landmarksSource: String?
    /// Per landmark, how its picks were combined: spread and lifting residuals.
    public var landmarkEstimates: [String: LandmarkEstimate]?
    /// The landmarks found on the head, with their confidence and best frames.
    public var automaticLandmarks: AutomaticLandmarks?

    /// A measurement record from its values.
    public init(
        measurement: HeadMeasurement, calliper: CalliperComparison? = nil, landmarks: HeadLandmarks,
        meshFile: String? = ScanSession.meshFileName, measuredAt: Date, landmarksSource: String? = nil,
        landmarkEstimates: [String: LandmarkEstimate]? = nil, automaticLandmarks: AutomaticLandmarks? = nil
    ) {
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
