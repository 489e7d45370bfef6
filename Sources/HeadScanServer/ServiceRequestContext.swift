import HTTPTypes
import Hummingbird
import NIOCore

/// The context of every request: Hummingbird's core, the connection (so that the audit log and
/// sign-in throttling know the client's address) and, behind the authentication middleware, the
/// caller.
public struct ServiceRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    let channel: Channel
    /// Set by `AuthenticationMiddleware` and `PageSignInMiddleware`; nil on open routes.
    var principal: Principal?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    public var remoteAddress: SocketAddress? { channel.remoteAddress }

    /// The caller a route behind an authentication middleware was let through for. A route
    /// registered without one has none and is refused rather than served to nobody.
    func requirePrincipal() throws -> Principal {
        guard let principal else { throw APIError.unauthorized() }
        return principal
    }

    func requireDevice() throws -> Device {
        guard case .device(let device) = try requirePrincipal() else { throw APIError.devicesOnly }
        return device
    }

    func requireResearcher() throws -> Researcher {
        guard case .researcher(let researcher) = try requirePrincipal() else { throw APIError.unauthorized() }
        return researcher
    }
}

extension ResearchServer {
    /// The client's address: the connection's, or behind a trusted proxy the last address the
    /// proxy added to `X-Forwarded-For` (earlier entries come from the client and prove nothing).
    func address(_ request: Request, _ context: ServiceRequestContext) -> String {
        let peer = context.remoteAddress?.ipAddress ?? "unknown"
        guard trustedProxies.contains(peer), let forwarded = request.headers[values: .xForwardedFor].last else { return peer }
        let last = forwarded.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        return last.isEmpty || last.count > 64 ? peer : last
    }
}

extension HTTPField.Name {
    static let xForwardedFor = Self("X-Forwarded-For")!
}
