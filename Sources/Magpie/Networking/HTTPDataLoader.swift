import AsyncHTTPClient
import NIOCore
import NIOHTTP1

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The HTTP transport: one AsyncHTTPClient `HTTPClient` shared by every download.
///
/// Redirects are not followed here (the downloader follows them, so its limit, loop check and
/// handler apply). The request's timeout is one deadline for connecting, the response head and the
/// body, so a stalled body fails when it passes. There is no separate idle-read timeout: the client
/// would re-arm its timer on every read of every body, which costs more than the rest of a
/// download's bookkeeping together.
public final class HTTPDataLoader: DataLoading {
    public let client: HTTPClient
    private let ownsClient: Bool

    /// A loader with its own client: `perHostConnections` connections per host at most.
    public init(perHostConnections: Int = 6, connectTimeout: Duration = .seconds(10)) {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = max(1, perHostConnections)
        configuration.timeout = HTTPClient.Configuration.Timeout(
            connect: .nanoseconds(Int64(connectTimeout.nanoseconds)))
        configuration.decompression = .disabled
        self.client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        self.ownsClient = true
    }

    /// A loader over a client you configured and shut down yourself. Configure it not to
    /// follow redirects (`.disallow`) so the downloader's redirect rules apply.
    public init(client: HTTPClient) {
        self.client = client
        self.ownsClient = false
    }

    public func load(_ request: DataRequest, progress: @escaping @Sendable (Int, Int?) -> Void) async throws
        -> DataResponse
    {
        var http = HTTPClientRequest(url: request.url.absoluteString)
        http.method = .GET
        for field in request.headers { http.headers.add(name: field.name, value: field.value) }
        // At most a day: NIO deadlines do not take unbounded amounts.
        let timeoutNanos = Int64(min(max(0, request.timeout.nanoseconds), 86_400 * 1_000_000_000))
        let start = NIODeadline.now()
        let deadline = start + .nanoseconds(timeoutNanos)
        // What arrived before a failure, for the error.
        var receivedBytes = 0
        var declaredLength: Int?
        do {
            let response = try await client.execute(http, deadline: deadline)
            let headers = response.headers.map { HTTPHeaderField($0.name, $0.value) }
            let status = Int(response.status.code)
            let finalURL = request.url
            let declared = response.headers.first(name: "content-length").flatMap { Int($0) }.flatMap {
                $0 >= 0 ? $0 : nil
            }
            declaredLength = declared
            if !request.acceptableStatusCodes.contains(status) {
                // Redirects and error pages: the body is not wanted. A small one is drained so
                // the connection can be reused; a large one closes it.
                _ = try? await response.body.collect(upTo: 64 << 10)
                return DataResponse(url: finalURL, statusCode: status, headers: headers)
            }
            if let declared, declared > request.maxBodySize {
                throw ImageDownloadError.bodyTooLarge(limit: request.maxBodySize, declared: declared)
            }
            var body: [UInt8] = []
            body.reserveCapacity(min(declared ?? 64 << 10, request.maxBodySize))
            for try await chunk in response.body {
                if chunk.readableBytes > request.maxBodySize - body.count {
                    throw ImageDownloadError.bodyTooLarge(limit: request.maxBodySize, declared: declared)
                }
                body.append(contentsOf: chunk.readableBytesView)
                receivedBytes = body.count
                if NIODeadline.now() > deadline { throw ImageDownloadError.timedOut(request.timeout) }
                progress(body.count, declared)
            }
            if let declared, body.count < declared {
                throw ImageDownloadError.truncatedBody(received: body.count, expected: declared)
            }
            return DataResponse(url: finalURL, statusCode: status, headers: headers, body: body)
        } catch let error as ImageDownloadError {
            throw error
        } catch let error as HTTPClientError {
            if Task.isCancelled { throw CancellationError() }
            switch error {
            case .deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout, .tlsHandshakeTimeout,
                .getConnectionFromPoolTimeout:
                throw ImageDownloadError.timedOut(request.timeout)
            case .alreadyShutdown: throw ImageDownloadError.shutDown
            case .invalidURL, .emptyHost, .emptyScheme:
                throw ImageDownloadError.invalidURL(request.url.absoluteString)
            default:
                if let declared = declaredLength, receivedBytes < declared {
                    throw ImageDownloadError.truncatedBody(received: receivedBytes, expected: declared)
                }
                throw ImageDownloadError.connectionFailed(String(describing: error))
            }
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            if Task.isCancelled { throw CancellationError() }
            throw ImageDownloadError.connectionFailed(String(describing: error))
        }
    }

    public func shutdown() async throws {
        if ownsClient { try await client.shutdown() }
    }
}

extension Duration {
    /// The whole duration in nanoseconds (saturating).
    var nanoseconds: Int {
        let (seconds, attoseconds) = components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? Int.min : Int.max }
        let (sum, sumOverflow) = Int(product).addingReportingOverflow(Int(attoseconds / 1_000_000_000))
        return sumOverflow ? (seconds < 0 ? Int.min : Int.max) : sum
    }
}
