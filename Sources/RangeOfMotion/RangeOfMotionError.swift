import Foundation

/// Why a knee measurement could not be made, in words that say what to do.
public enum RangeOfMotionError: Error, Equatable, Sendable, LocalizedError, CustomStringConvertible {
    /// The poses are not a pose file (wrong JSON shape, a wrong keypoint name, …).
    case unreadablePoses(String)
    /// The poses hold no frame.
    case noFrames
    /// The image size is not two positive numbers.
    case invalidImageSize(width: Double, height: Double)
    /// One frame has a value that cannot be right (index from 0).
    case invalidFrame(index: Int, problem: String)
    /// Too few frames passed the quality gates.
    case videoRefused(QualitySummary)
    /// A setting is out of its range.
    case invalidSetting(name: String, rule: String)
    /// A patient ID that cannot name a folder.
    case invalidPatientID(String)
    /// A stored measurement cannot be written.
    case cannotSave(path: String, reason: String)
    /// A stored measurement cannot be read.
    case unreadableRecord(path: String, reason: String)
    /// A stored measurement comes from a newer HeadScan.
    case newerRecord(path: String, version: Int, supported: Int)

    public var errorDescription: String? { description }

    public var description: String {
        switch self {
        case .unreadablePoses(let why):
            "the poses cannot be read (\(why)); give {\"width\": W, \"height\": H, \"frames\": [{\"t\": 0.0, \"keypoints\": {\"left_hip\": [x, y, confidence], …}}]} with COCO's keypoint names"
        case .noFrames:
            "the poses hold no frame; film the knee bending and stretching for a few seconds and sample the video again"
        case .invalidImageSize(let width, let height):
            "the image size \(width) x \(height) is not valid; give the video's width and height in pixels"
        case .invalidFrame(let index, let problem):
            "frame \(index) of the poses is not valid: \(problem); fix or remove that frame"
        case .videoRefused(let summary):
            "the video cannot be measured: \(summary.refusalText)"
        case .invalidSetting(let name, let rule):
            "the setting \(name) is out of range: \(rule)"
        case .invalidPatientID(let id):
            "\"\(id)\" cannot be a patient ID: use letters, digits, '-' or '_' (at most 64)"
        case .cannotSave(let path, let reason):
            "cannot save the measurement to \(path): \(reason); check that the folder exists and can be written"
        case .unreadableRecord(let path, let reason):
            "the stored measurement \(path) cannot be read (\(reason)); fix or delete the file, the other measurements still list"
        case .newerRecord(let path, let version, let supported):
            "the stored measurement \(path) has version \(version), this HeadScan reads up to \(supported); update HeadScan"
        }
    }
}
