import Foundation
import Hummingbird

/// Headers every answer carries: no sniffing, no framing, scripts only from this server. Errors
/// that are no API answer (the database, the disk) become one, with a body that says what to do.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Behind TLS: browsers are told to use HTTPS only, for a year.
    var strictTransport = false

    /// The answer to an error no route turned into one.
    static func unexpected(_ error: any Error) -> APIError {
        if DiskSpace.isFull(error) { return StorageLimits.noSpace("this request") }
        return APIError(
            .internalServerError, "the service could not finish this request; try again in a minute, and tell the administrator if it stays")
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as APIError {
            response = try error.response(from: request, context: context)
        } catch let error as HTTPError {
            response = try APIError(error.status, error.body ?? error.status.reasonPhrase).response(from: request, context: context)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            // Never an empty 500: a full disk is a 503 to come back after, anything else says so.
            response = try Self.unexpected(error).response(from: request, context: context)
        }
        response.headers[.xContentTypeOptions] = "nosniff"
        if response.headers[.contentSecurityPolicy] == nil {
            response.headers[.contentSecurityPolicy] =
                "default-src 'self'; img-src 'self' data:; style-src 'self'; frame-ancestors 'none'; form-action 'self'"
        }
        // Not "no-referrer": under it browsers send `Origin: null` with the pages' own forms,
        // which the forgery check must refuse. Nothing is sent to other sites either way.
        response.headers[.referrerPolicyHeader] = "same-origin"
        if strictTransport { response.headers[.strictTransportSecurity] = "max-age=31536000; includeSubDomains" }
        return response
    }
}

/// Whether an error says the disk is full (or the database could not write for that reason).
enum DiskSpace {
    static func isFull(_ error: any Error) -> Bool {
        if let error = error as? CocoaError, error.code == .fileWriteOutOfSpace { return true }
        if let error = error as? POSIXError, error.code == .ENOSPC || error.code == .EDQUOT { return true }
        let text = String(describing: error).lowercased()
        return text.contains("no space left") || text.contains("disk is full") || text.contains("database or disk is full")
    }
}
