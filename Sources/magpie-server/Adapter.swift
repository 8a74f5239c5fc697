import HTTPTypes
import Hummingbird
import MagpieHummingbird
import MagpieServer
import NIOCore

/// The server's one responder: `/metrics` when served beside the images, else the image service
/// (through `MagpieHummingbird`, as any Hummingbird app mounts it).
enum Adapter {
    static func respond(_ request: Request, _ service: ImageService, metrics: MetricsEndpoint?) async -> Response {
        if let metrics, request.uri.path == "/metrics" { return metricsResponse(metrics) }
        return await service.respond(to: request)
    }

    /// The metrics listener: `/metrics`, and 404 for anything else.
    static func metricsOnly(_ request: Request, _ metrics: MetricsEndpoint) async -> Response {
        guard request.uri.path == "/metrics" else { return Response(status: .notFound) }
        return metricsResponse(metrics)
    }

    private static func metricsResponse(_ metrics: MetricsEndpoint) -> Response {
        var fields = HTTPFields()
        fields[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
        fields[.cacheControl] = "no-store"
        return Response(
            status: .ok, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.render())))
    }
}
