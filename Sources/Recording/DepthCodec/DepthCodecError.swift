import Foundation

/// Why a compressed depth map could not be read.
public enum DepthCodecError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes do not start like compressed depth at all.
    case notDepthData
    /// Written by a newer codec version than this build knows.
    case unsupportedVersion(Int)
    /// The header names a coding mode this version does not know.
    case unknownMode(Int)
    /// The header announces an image larger than the codec accepts.
    case tooLarge(width: Int, height: Int)
    /// Fewer bytes than the header announces.
    case truncated(expected: Int, actual: Int)
    /// The bytes are inconsistent; the reason says where.
    case corrupt(String)

    public var description: String {
        switch self {
        case .notDepthData:
            "These bytes are not a compressed depth map (wrong magic number); the file may be damaged or of another kind."
        case .unsupportedVersion(let version):
            "This depth map was written by a newer version of HeadScan (depth codec \(version)); update the app to read it."
        case .unknownMode(let mode):
            "This depth map uses an unknown coding mode (\(mode)); it is damaged or from a newer version of HeadScan."
        case .tooLarge(let width, let height):
            "The depth map claims \(width)x\(height) pixels, more than \(DepthCodec.maxPixels); the data is damaged."
        case .truncated(let expected, let actual):
            "The depth map is cut short (\(actual) of \(expected) bytes); the recording was probably interrupted."
        case .corrupt(let reason):
            "The depth map is damaged: \(reason). This frame cannot be restored; other frames are unaffected."
        }
    }
}

// Apps show `localizedDescription`; without this they would show a generic sentence instead
// of the message that says what to do.
extension DepthCodecError: LocalizedError {
    public var errorDescription: String? { description }
}
