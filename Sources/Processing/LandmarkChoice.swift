import Cephalometry
import Foundation
import Geometry
import ScanLibrary

/// Which landmarks a measurement uses: the therapist's picks where there are any, the ones
/// found on the head for the rest, and warnings where the two disagree or a found one is faint.
struct LandmarkChoice {
    let landmarks: HeadLandmarks
    let source: LandmarkSource
    let warnings: [MeasurementWarning]

    /// Picks and found landmarks this far apart (metres) deserve a second look.
    static let disagreement = 0.003

    /// The landmarks from the picks and the search; `refusalAdvice` is added to the reason when
    /// the search could not find the landmarks that were not picked.
    init(
        picked: [Landmark: LandmarkEstimate], automatic: Result<AutomaticLandmarks, CephalometryError>, liftedFromFrames: Bool,
        refusalAdvice: String? = nil
    )
        throws(ProcessingError)
    {
        let found = try? automatic.get()
        var points: [Landmark: SIMD3<Double>] = [:]
        var warnings: [MeasurementWarning] = []
        for landmark in Landmark.allCases {
            let detected = found?[landmark]
            if let pick = picked[landmark] {
                points[landmark] = pick.point
                if let detected, length(detected.point - pick.point) > Self.disagreement {
                    warnings.append(
                        MeasurementWarning(
                            .landmarksDisagree,
                            String(
                                format: "the picked %@ lies %.1f mm from where HeadScan finds it on the head; check it in the replay",
                                landmark.rawValue, length(detected.point - pick.point) * 1000)))
                }
            } else if let detected {
                points[landmark] = detected.point
                if detected.confidence < DetectedLandmark.doubtfulConfidence {
                    warnings.append(
                        MeasurementWarning(
                            .uncertainLandmark,
                            String(
                                format: "the %@ was found with confidence %.2f (%@); confirm it in the replay", landmark.rawValue,
                                detected.confidence, detected.evidence)))
                }
            }
        }
        let missing = Landmark.allCases.filter { points[$0] == nil }
        guard missing.isEmpty, let nasion = points[.nasion], let tip = points[.noseTip], let left = points[.leftTragion],
            let right = points[.rightTragion]
        else {
            if case .failure(let error) = automatic {
                throw .landmarksNotFound(missing, reason: error.description + (refusalAdvice.map { "; \($0)" } ?? ""))
            }
            throw .missingPicks(missing)
        }
        landmarks = HeadLandmarks(nasion: nasion, noseTip: tip, leftTragion: left, rightTragion: right)
        source = picked.isEmpty ? .automatic : picked.count < Landmark.allCases.count ? .picksAndAutomatic : liftedFromFrames ? .picks : .points
        self.warnings = warnings
    }
}
