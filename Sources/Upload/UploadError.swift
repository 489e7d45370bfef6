import Foundation

/// Why an upload could not be prepared or finished; each message says what to do.
public enum UploadError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    case notASession(String)
    case noConsent(String)
    case consentRefused(String)
    case badSiteKey(String)
    case unreadable(String)
    case badFileName(String)
    case rejected(status: Int, message: String)
    case network(String)
    case verificationFailed(String)

    public var description: String {
        switch self {
        case .notASession(let text), .badSiteKey(let text), .unreadable(let text), .network(let text), .verificationFailed(let text):
            return text
        case .noConsent(let session):
            return
                "\(session) has no consent record, so it is not uploaded; ask the parent and record the answer (`headscan consent SESSION_DIR --research yes|no`)"
        case .consentRefused(let session):
            return "the parent did not agree to research use of \(session), so it is not uploaded"
        case .badFileName(let name):
            return
                "the session holds a file named \"\(name)\" that cannot be uploaded; use letters, digits, '.', '_' and '-' only, or move it out of the session folder"
        case .rejected(let status, let message):
            return "the server refused the upload (HTTP \(status)): \(message)"
        }
    }

    public var errorDescription: String? { description }
}
