import HTTPTypes
import Hummingbird
import MagpieServer
import NIOCore

extension ImageService {
    /// Answers a Hummingbird request: its method, raw target (the router would drop the empty
    /// segment of `http://`) and headers in; status, headers and body out.
    /// - Parameter prefix: the path the service is mounted under (`""`: the root); a request
    ///   outside it is 404. Signatures cover the path after the prefix, as imgproxy's do with
    ///   `IMGPROXY_PATH_PREFIX`.
    public func respond(to request: Request, mountedAt prefix: String = "") async -> Response {
        let incoming = ServiceRequest(
            method: request.method.rawValue, target: request.uri.string,
            headers: request.headers.map { ($0.name.rawName, $0.value) })
        guard let mounted = incoming.mounted(at: prefix) else { return Response(status: .notFound) }
        let answer = await respond(to: mounted)
        var fields = HTTPFields()
        for (name, value) in answer.headers {
            if let field = HTTPField.Name(name) { fields.append(HTTPField(name: field, value: value)) }
        }
        let status = HTTPResponse.Status(code: answer.status)
        guard !answer.body.isEmpty else { return Response(status: status, headers: fields) }
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body)))
    }
}

extension Router {
    /// Mounts `service` under `prefix` (say `/img`; `""` for the root) for GET and HEAD, beside
    /// the application's own routes.
    public func addImageService(_ service: ImageService, at prefix: String) {
        let path = RouterPath(prefix.isEmpty ? "/**" : prefix + "/**")
        for method in [HTTPRequest.Method.get, .head] {
            on(path, method: method) { request, _ in await service.respond(to: request, mountedAt: prefix) }
        }
    }
}
