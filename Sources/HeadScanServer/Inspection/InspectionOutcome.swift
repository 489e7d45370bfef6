import Foundation
import HTTPTypes

/// What the `inspect-upload` helper answers on standard output: the refusal, or the values the
/// listing shows (the kept bytes are in the output file).
public struct InspectionOutcome: Codable, Sendable {
    public struct Refusal: Codable, Sendable {
        public var status: Int
        public var message: String

        var error: APIError {
            let code = (400...499).contains(status) ? status : 422
            return APIError(HTTPResponse.Status(code: code), message)
        }
    }

    public var refusal: Refusal?
    public var values = SessionValues()
}

extension IsolatedWork {
    /// Checks the uploaded file `name` at `input`, writes the service's encoding to `output`, and
    /// answers with the outcome as JSON (a refusal is an answer, not a failure).
    public static func inspect(name: String, input: URL, output: URL) -> Data {
        var outcome = InspectionOutcome()
        do {
            outcome.values = try UploadInspector.inspect(name, at: input, writingTo: output)
        } catch {
            try? FileManager.default.removeItem(at: output)
            outcome.refusal = .init(status: Int(error.status.code), message: error.message)
        }
        return (try? JSONEncoder().encode(outcome)) ?? Data(#"{"refusal":{"status":422,"message":"the check failed"}}"#.utf8)
    }
}
