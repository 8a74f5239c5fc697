import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// Receives one response on the client's event loop: the head, then each body part as it is
/// read, with no hop to a task per part (the async body sequence's cost).
///
/// Its state is touched only on the request's event loop, and read by the caller after the
/// request's future has completed, which orders those reads after every write.
final class BodyReceiver: HTTPClientResponseDelegate, @unchecked Sendable {
    typealias Response = DataResponse

    /// Stops reading an unwanted answer's body once it is too large to drain.
    struct Drained: Error {}

    private let request: DataRequest
    private let progress: @Sendable (Int, Int?) -> Void
    private var status = 0
    private var headers: [HTTPHeaderField] = []
    private var declared: Int?
    /// The body came `gzip`- or `deflate`-encoded and arrives inflated: `declared` was the encoded
    /// length, so it neither bounds nor completes the inflated one (the inflater checks the stream
    /// ended, and fails a cut one).
    private var encoded = false
    /// Whether the status is one whose body is kept; others are drained (redirects, error pages).
    private var wanted = true
    private var drained = 0
    private var body: [UInt8] = []

    init(request: DataRequest, progress: @escaping @Sendable (Int, Int?) -> Void) {
        self.request = request
        self.progress = progress
    }

    /// Whether a response head arrived (read after the request's future completed).
    var answered: Bool { status != 0 }

    func didReceiveHead(task: HTTPClient.Task<DataResponse>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        status = Int(head.status.code)
        let encoding = head.headers.first(name: "content-encoding")?.lowercased()
        encoded = encoding == "gzip" || encoding == "deflate"
        headers = head.headers.filter {
            !encoded || !["content-encoding", "content-length"].contains($0.name.lowercased())
        }
        .map { HTTPHeaderField($0.name, $0.value) }
        declared = head.headers.first(name: "content-length").flatMap { Int($0) }.flatMap { $0 >= 0 ? $0 : nil }
        if !request.acceptableStatusCodes.contains(status) {
            wanted = false
        } else if let declared, declared > request.maxBodySize {
            return task.eventLoop.makeFailedFuture(
                ImageDownloadError.bodyTooLarge(limit: request.maxBodySize, declared: declared))
        } else {
            body.reserveCapacity(min(declared ?? 64 << 10, request.maxBodySize))
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<DataResponse>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        guard wanted else {
            // A small body is drained so the connection can be reused; a large one closes it.
            drained += buffer.readableBytes
            return drained > 64 << 10
                ? task.eventLoop.makeFailedFuture(Drained()) : task.eventLoop.makeSucceededVoidFuture()
        }
        if buffer.readableBytes > request.maxBodySize - body.count {
            return task.eventLoop.makeFailedFuture(
                ImageDownloadError.bodyTooLarge(limit: request.maxBodySize, declared: declared))
        }
        body.append(contentsOf: buffer.readableBytesView)
        progress(body.count, encoded ? nil : declared)
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<DataResponse>) throws -> DataResponse {
        guard wanted else { return head(of: request) }
        if let truncated = truncation() { throw truncated }
        return DataResponse(url: request.url, statusCode: status, headers: headers, body: body)
    }

    /// The answer without a body.
    func head(of request: DataRequest) -> DataResponse {
        DataResponse(url: request.url, statusCode: status, headers: headers)
    }

    /// The error for a wanted body that ended before its declared length.
    func truncation() -> ImageDownloadError? {
        guard wanted, !encoded, let declared, body.count < declared else { return nil }
        return .truncatedBody(received: body.count, expected: declared)
    }
}
