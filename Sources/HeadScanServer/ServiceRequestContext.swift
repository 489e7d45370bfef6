import HTTPTypes
import Hummingbird
import NIOCore

/// The context of every request: Hummingbird's core, and the connection, so that the audit log
/// and sign-in throttling know the client's address.
public struct ServiceRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    let channel: Channel

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    public var remoteAddress: SocketAddress? { channel.remoteAddress }
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
