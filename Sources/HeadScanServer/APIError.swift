import Foundation
import Hummingbird
import Upload

/// An answer other than success: the status and a message that says what to do.
public struct APIError: Error, HTTPResponseError, CustomStringConvertible {
    public var status: HTTPResponse.Status
    public var message: String
    public var headers: HTTPFields = [:]

    public init(_ status: HTTPResponse.Status, _ message: String) {
        self.status = status
        self.message = message
    }

    public var description: String { "\(status.code): \(message)" }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let data = (try? JSONEncoder().encode(APIErrorBody(error: message))) ?? Data()
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// 401; the Basic challenge only where a browser or a researcher's tool should ask for a
    /// password (URLSession on Linux stalls on a challenge it has no delegate for).
    static func unauthorized(
        _ message: String = "sign in: devices send `Authorization: Bearer TOKEN`, researchers HTTP Basic with their e-mail and password",
        challenge: Bool = true
    ) -> APIError {
        var error = APIError(.unauthorized, message)
        if challenge { error.headers[.wwwAuthenticate] = "Basic realm=\"HeadScan research\", charset=\"UTF-8\"" }
        return error
    }

    static let notFound = APIError(.notFound, "no such session, upload or file (or it is not yours)")

    static let devicesOnly = APIError(.forbidden, "only devices upload sessions; use a device token (`headscan-server device add NAME`)")
}
