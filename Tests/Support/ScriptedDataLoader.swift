import Foundation
import Magpie
import MagpieLoopback
import Synchronization

/// Plays a ``LoopbackServer``'s scripted replies without a socket: the same handler answers each
/// request in memory, so pipeline tests that are not about the transport need no port, no event
/// loop and no HTTP parsing (the loopback server stays for the transport's own tests).
///
/// Give it to a downloader as the `http` transport and use ``url(_:)`` for its URLs. Replies map
/// to what the HTTP transport makes of the same bytes on the wire: a body past `maxBodySize` is
/// `bodyTooLarge`, a truncated one `truncatedBody`, a closed or malformed answer
/// `connectionFailed`, a status the request does not want comes without its body; a slow body
/// arrives whole (no clock runs here).
public final class ScriptedDataLoader: DataLoading, Sendable {
    private let handler: LoopbackServer.Handler
    private let counts = Mutex<[String: Int]>([:])

    public init(_ handler: @escaping LoopbackServer.Handler) { self.handler = handler }

    /// A URL this loader answers when it is the downloader's `http` transport. The address is a
    /// loopback one nothing listens on, so a request that reached a socket by mistake fails.
    public func url(_ pathAndQuery: String) -> URL { URL(string: "http://127.0.0.1:9" + pathAndQuery)! }

    /// Requests seen for `path` (without the query).
    public func requestCount(_ path: String) -> Int { counts.withLock { $0[path, default: 0] } }

    public func load(_ request: DataRequest, progress: @escaping @Sendable (Int, Int?) -> Void) async throws
        -> DataResponse
    {
        try Task.checkCancellation()
        var uri = request.url.path(percentEncoded: true)
        if let query = request.url.query(percentEncoded: true) { uri += "?" + query }
        let seen = LoopbackRequest(uri: uri, headers: request.headers.map { ($0.name, $0.value) })
        counts.withLock { $0[seen.path, default: 0] += 1 }
        let reply = await handler(seen)
        try Task.checkCancellation()
        switch reply {
        case .respond(let status, let headers, let body):
            return try response(request, status, headers, body, progress)
        case .slow(let status, let headers, let chunks, _, _):
            return try response(request, status, headers, chunks.flatMap { $0 }, progress)
        case .paced(let status, let headers, let body, let declared, _, _) where body.count >= declared:
            return try response(request, status, headers, body, progress)
        case .truncated(let status, let headers, let body, let declared),
            .paced(let status, let headers, let body, let declared, _, _),
            .stall(let status, let headers, let body, let declared, _):
            guard request.acceptableStatusCodes.contains(status) else {
                return DataResponse(url: request.url, statusCode: status, headers: fields(headers))
            }
            throw ImageDownloadError.truncatedBody(received: body.count, expected: declared)
        case .close:
            throw ImageDownloadError.connectionFailed("the connection closed without an answer")
        case .raw:
            throw ImageDownloadError.connectionFailed("the answer was not HTTP")
        }
    }

    private func response(
        _ request: DataRequest, _ status: Int, _ headers: [(String, String)], _ body: [UInt8],
        _ progress: @Sendable (Int, Int?) -> Void
    ) throws -> DataResponse {
        guard request.acceptableStatusCodes.contains(status) else {
            return DataResponse(url: request.url, statusCode: status, headers: fields(headers))
        }
        if body.count > request.maxBodySize {
            throw ImageDownloadError.bodyTooLarge(limit: request.maxBodySize, declared: body.count)
        }
        progress(body.count, body.count)
        return DataResponse(url: request.url, statusCode: status, headers: fields(headers), body: body)
    }

    private func fields(_ headers: [(String, String)]) -> [HTTPHeaderField] {
        headers.map { HTTPHeaderField($0.0, $0.1) }
    }
}
