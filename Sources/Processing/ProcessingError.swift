import Cephalometry
import Foundation
import ScanLibrary

/// Why a session cannot be processed, in words that say what to do.
public enum ProcessingError: Error, Equatable, CustomStringConvertible, LocalizedError {
    /// Landmarks without a single pick.
    case missingPicks([Landmark])
    /// Landmarks neither picked nor found on the head, and why the search failed.
    case landmarksNotFound([Landmark], reason: String)
    /// A pick names a frame the scan cannot give.
    case unreadableFrame(landmark: Landmark, frame: Int, reason: String)
    /// A pick cannot be placed in 3D.
    case cannotLift(landmark: Landmark, frame: Int?, reason: String)
    /// The cap stood off the skin at its lower edge (hair under it): the scan shows the cap,
    /// not the skull.
    case capLifted(CapStandOff)
    /// A scan without markers whose cap's print, as the views placed it, does not match the
    /// layout's: the views were placed wrongly.
    case printNotMatched(String)
    /// A scan without markers whose measurement lies where the head has no surface: the part
    /// of the head it needs was never placed, and nothing else says where the head was there.
    case regionNotScanned(String)
    /// Processing was cancelled; nothing was saved.
    case cancelled

    public var description: String {
        switch self {
        case .missingPicks(let landmarks):
            "landmarks not picked yet: \(landmarks.map(\.rawValue).joined(separator: ", ")); place them in the replay (or in annotations.json) and process again"
        case .landmarksNotFound(let landmarks, let reason):
            "\(landmarks.map(\.rawValue).joined(separator: ", ")) not picked, and HeadScan could not find them on the head (\(reason)); place them in the replay and process again"
        case .unreadableFrame(let landmark, let frame, let reason):
            "\(landmark.rawValue) is picked on frame \(frame), which cannot be read (\(reason)); pick it on another frame"
        case .cannotLift(let landmark, let frame, let reason):
            "\(landmark.rawValue)\(frame.map { " on frame \($0)" } ?? ""): \(reason)"
        case .capLifted(let standOff):
            "not measured: \(CapFitAdvice.lifted(standOff)); to measure this scan anyway, knowing its values are not the skull's, ask for it (process --measure-over-hair)"
        case .printNotMatched(let reason):
            "not measured: \(reason)"
        case .regionNotScanned(let hole):
            "not measured: without stickers a part of the head the measurement needs was never placed (\(hole)); "
                + "scan again, slowly all round the head, and check in the replay that the back and both sides are covered"
        case .cancelled:
            "processing was cancelled; the session is as it was"
        }
    }

    public var errorDescription: String? { description }
}
