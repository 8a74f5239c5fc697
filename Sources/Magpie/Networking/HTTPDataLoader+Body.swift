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
    /// `N` when the downloader resumes a body (`keepsPartialBody` and `Range: bytes=N-`): a `206`
    /// then continues N bytes already held, so it may bring only the limit's rest, and progress
    /// counts from N. A caller's own range request is read as it comes.
    private let offset: Int
    /// The bytes this answer may bring.
    private var limit: Int

    init(request: DataRequest, progress: @escaping @Sendable (Int, Int?) -> Void) {
        self.request = request
        self.progress = progress
        self.offset =
            request.keepsPartialBody ? request.headers.value(for: "Range").flatMap(Self.rangeStart) ?? 0 : 0
        self.limit = request.maxBodySize
    }

    /// `N` of `bytes=N-`.
    private static func rangeStart(_ value: String) -> Int? {
        guard value.hasPrefix("bytes="), value.hasSuffix("-") else { return nil }
        return ResumableBody.number(value.dropFirst(6).dropLast())
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
        if status == 206, offset > 0 {
            // Only the continuation asked for is read; another range, or an encoded one, is
            // not (the downloader then starts over).
            let range = ResumableBody.contentRange(headers)
            guard !encoded, range?.first == offset else {
                wanted = false
                return task.eventLoop.makeSucceededVoidFuture()
            }
            limit = max(0, request.maxBodySize - offset)
        }
        if !request.acceptableStatusCodes.contains(status) {
            wanted = false
        } else if let declared, declared > limit {
            return task.eventLoop.makeFailedFuture(
                ImageDownloadError.bodyTooLarge(limit: request.maxBodySize, declared: declared + resumedFrom))
        } else {
            body.reserveCapacity(min(declared ?? 64 << 10, limit))
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
        if buffer.readableBytes > limit - body.count {
            return task.eventLoop.makeFailedFuture(
                ImageDownloadError.bodyTooLarge(limit: request.maxBodySize, declared: declared.map { $0 + resumedFrom })
            )
        }
        body.append(contentsOf: buffer.readableBytesView)
        progress(resumedFrom + body.count, encoded ? nil : declared.map { $0 + resumedFrom })
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<DataResponse>) throws -> DataResponse {
        guard wanted else { return head(of: request) }
        if let truncated = truncation() { throw interrupted(truncated) }
        return DataResponse(url: request.url, statusCode: status, headers: headers, body: body)
    }

    /// The bytes a continuing `206` follows (0 for any other answer).
    private var resumedFrom: Int { status == 206 ? offset : 0 }

    /// `failure`, with the body received so far when it is one the downloader might continue
    /// (``DataTransferInterrupted``): a wanted `200` or `206` that was not inflated.
    func interrupted(_ failure: ImageDownloadError) -> any Error {
        guard request.keepsPartialBody, wanted, !encoded, status == 200 || status == 206, !body.isEmpty else {
            return failure
        }
        return DataTransferInterrupted(
            partial: DataResponse(url: request.url, statusCode: status, headers: headers, body: body), failure: failure)
    }

    /// The answer without a body.
    func head(of request: DataRequest) -> DataResponse {
        DataResponse(url: request.url, statusCode: status, headers: headers)
    }

    /// The error for a wanted body that ended before its declared length.
    func truncation() -> ImageDownloadError? {
        guard wanted, !encoded, let declared, body.count < declared else { return nil }
        return .truncatedBody(received: resumedFrom + body.count, expected: resumedFrom + declared)
    }
}
