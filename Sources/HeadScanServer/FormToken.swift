import Crypto
import Foundation
import Hummingbird

/// Cross-site request forgery defence for the pages' forms: a random token in a `SameSite=Strict`
/// cookie that every form repeats in a hidden field (double submit), and an `Origin` that, when
/// the browser sends one, names this server.
enum FormToken {
    static let cookieName = "headscan_form"

    /// The request's token, or a new one (true when new).
    static func of(_ request: Request) -> (String, Bool) {
        if let token = ResearchServer.cookie(cookieName, in: request), token.utf8.count == 43 { return (token, false) }
        let bytes = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        let token = bytes.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return (token, true)
    }

    static func cookie(_ token: String, secure: Bool) -> String {
        "\(cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict\(secure ? "; Secure" : "")"
    }

    /// Refuses a form post whose token does not match its cookie, or that comes from another site.
    static func check(_ request: Request, form: [String: String]) throws {
        if let origin = request.headers[.origin], let host = request.head.authority {
            let originHost = origin.split(separator: "/", omittingEmptySubsequences: true).dropFirst().first.map(String.init) ?? ""
            guard originHost == host else {
                throw APIError(.forbidden, "the form was sent from another site; open the page on this server and send it again")
            }
        }
        guard let cookie = ResearchServer.cookie(cookieName, in: request), let field = form["csrf"],
            cookie.utf8.count == 43, Array(cookie.utf8) == Array(field.utf8)
        else {
            throw APIError(.forbidden, "the form has expired; reload the page and send it again")
        }
    }
}
