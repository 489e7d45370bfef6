import Hummingbird
import NIOCore

/// The routes about the service itself: whether it runs, and the API's description.
struct ServiceController {
    func addRoutes(to group: RouterGroup<ServiceRequestContext>) {
        group.get("healthz") { _, _ in "ok" }
        group.get("openapi.yaml") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/yaml; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: OpenAPIDocument.yaml)))
        }
    }
}
