import MagpieServer
import NIOCore
import NIOHTTP1
import Vapor

extension ImageService {
    /// Answers a Vapor request: its method, raw target (as the client sent it: Vapor's router would
    /// fold the empty segment of `http://` in a plain source) and headers in; status, headers and
    /// body out. The request's body is never read.
    /// - Parameter prefix: the path the service is mounted under (`""`: the root); a request
    ///   outside it is 404. Signatures cover the path after the prefix, as imgproxy's do with
    ///   `IMGPROXY_PATH_PREFIX`.
    public func respond(to request: Vapor.Request, mountedAt prefix: String = "") async -> Vapor.Response {
        let incoming = ServiceRequest(
            method: request.method.rawValue, target: request.url.string,
            headers: request.headers.map { ($0.name, $0.value) })
        guard let mounted = incoming.mounted(at: prefix) else { return Response(status: .notFound) }
        let answer = await respond(to: mounted)
        var headers = HTTPHeaders()
        for (name, value) in answer.headers { headers.add(name: name, value: value) }
        let status = HTTPResponseStatus(statusCode: answer.status)
        // The bytes in one buffer, sent with their Content-Length (a HEAD's headers say the GET's).
        let body: Response.Body =
            answer.body.isEmpty ? .empty : .init(buffer: request.byteBufferAllocator.buffer(bytes: answer.body))
        let response = Response(status: status, headers: headers, body: body)
        if request.method == .HEAD, let length = answer.header("Content-Length") {
            response.headers.replaceOrAdd(name: .contentLength, value: length)
        }
        return response
    }
}

/// The image service's routes: GET and HEAD of everything beneath `prefix`, with the request body
/// left unread (`body: .stream`, never collected). Register it as any route collection:
/// `try app.register(collection: ImageServiceRoutes(service, at: "/img"))`.
public struct ImageServiceRoutes: RouteCollection {
    public let service: ImageService
    public let prefix: String

    /// - Parameter prefix: `"/img"`, or `""` for the root.
    public init(_ service: ImageService, at prefix: String) {
        self.service = service
        self.prefix = prefix.hasSuffix("/") ? String(prefix.dropLast()) : prefix
    }

    public func boot(routes: any RoutesBuilder) throws {
        let segments = prefix.split(separator: "/").map { PathComponent(stringLiteral: String($0)) }
        for method in [HTTPMethod.GET, .HEAD] {
            routes.on(method, segments + [.catchall], body: .stream) { [service, prefix] request in
                await service.respond(to: request, mountedAt: prefix)
            }
        }
    }
}
