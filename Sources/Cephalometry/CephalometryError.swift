import Foundation

/// Why a head cannot be measured, in words that say what to fix.
public enum CephalometryError: Error, Equatable, CustomStringConvertible {
    /// The mesh has no triangles, bad indices or non-finite coordinates.
    case unusableMesh(String)
    /// The landmarks cannot define a head frame.
    case unusableLandmarks(String)
    /// The landmarks file could not be read.
    case unreadableLandmarks(String)
    /// No closed slice surrounds the ear-line centre above the reference plane.
    case noContour(String)
    /// A 2D annotation cannot be lifted to 3D.
    case cannotLift(String)
    /// Calliper values are missing or implausible.
    case invalidCalliper(String)
    /// The visits cannot give a trend.
    case invalidTrend(String)
    /// A clinic's thresholds cannot grade a head.
    case invalidThresholds(String)

    public var description: String {
        switch self {
        case .unusableMesh(let why): "cannot measure this mesh: \(why)"
        case .unusableLandmarks(let why): "cannot use these landmarks: \(why)"
        case .unreadableLandmarks(let why): "cannot read the landmarks: \(why)"
        case .noContour(let why): "cannot find the head outline: \(why)"
        case .cannotLift(let why): "cannot place the annotation in 3D: \(why)"
        case .invalidCalliper(let why): "cannot use the calliper values: \(why)"
        case .invalidTrend(let why): "cannot compute a trend: \(why)"
        case .invalidThresholds(let why): "cannot use these thresholds: \(why)"
        }
    }
}

// Apps show `localizedDescription`; without this they would show a generic sentence instead
// of the message that says what to do.
extension CephalometryError: LocalizedError {
    public var errorDescription: String? { description }
}
