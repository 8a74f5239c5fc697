import HTTPTypes
import Hummingbird
import MagpieServer
import NIOCore

/// Hummingbird 2 to ``ImageService`` and back: the raw request target (the router would drop the
/// empty segment of `http://`), the method and the headers in; status, headers and body out.
enum Adapter {
    static func respond(_ request: Request, _ service: ImageService, metrics: MetricsEndpoint?) async -> Response {
        if let metrics, request.uri.path == "/metrics" {
            var fields = HTTPFields()
            fields[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            fields[.cacheControl] = "no-store"
            return Response(
                status: .ok, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.render())))
        }
        let answer = await service.respond(
            to: ServiceRequest(
                method: request.method.rawValue, target: request.uri.string,
                headers: request.headers.map { ($0.name.rawName, $0.value) }))
        var fields = HTTPFields()
        for (name, value) in answer.headers {
            if let field = HTTPField.Name(name) { fields.append(HTTPField(name: field, value: value)) }
        }
        let status = HTTPResponse.Status(code: answer.status)
        guard !answer.body.isEmpty else {
            return Response(status: status, headers: fields)
        }
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body)))
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
