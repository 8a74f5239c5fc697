import AsyncHTTPClient
import NIOCore
import NIOHTTP1

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The HTTP transport, over AsyncHTTPClient.
///
/// Redirects are not followed here (the downloader follows them, so its limit, loop check and
/// handler apply). The request's timeout is one deadline for connecting, the response head and the
/// body, so a stalled body fails when it passes. There is no separate idle-read timeout: the client
/// would re-arm its timer on every read of every body, which costs more than the rest of a
/// download's bookkeeping together.
///
/// Every connection obeys the ``AddressPolicy``. AsyncHTTPClient has no hook between resolving a
/// name and connecting, so the loader resolves names itself: it judges every address a name
/// resolves to (one denied address refuses the name), then sends the request through a client of
/// that host's own whose `dnsOverride` holds the chosen address, so the connection goes to the
/// address that was judged and the name is never resolved again for it (no rebinding window);
/// the `Host` header, TLS SNI and the certificate check still use the name. A URL whose host is an
/// address literal is judged as it is. Each redirect hop is a request of its own, judged the same
/// way. With ``AddressPolicy/allowAll`` one shared client serves every host and nothing is
/// resolved here.
///
/// Bodies are read through the client's delegate interface: each part is appended on the event
/// loop that read it, where the async body sequence would wake a task per part. Progress is
/// therefore reported on that event loop.
public final class HTTPDataLoader: DataLoading {
    /// The client for address literals, and for every host when the policy checks nothing.
    public let client: HTTPClient
    private let ownsClient: Bool
    public let addressPolicy: AddressPolicy
    private let pins: PinnedClients?
    /// Whether each request asks for its connection to be closed after it (keep-alive off).
    private let closesConnections: Bool

    /// A loader with its own clients: `perHostConnections` connections per host at most,
    /// connecting only where `addressPolicy` allows. Names are resolved by `resolver` and an
    /// address is kept for `pinLifetime` before the name is resolved and judged again.
    /// `maxDecodedBodySize` bounds a `gzip` or `deflate` body as it is inflated (a request's own
    /// `maxBodySize` then bounds what it keeps): a compression bomb stops there. An idle
    /// connection is kept for `keepAlive` for the next request to the host; `nil` sends each
    /// request with `Connection: close` (keep-alive off, as Go's `DisableKeepAlives`).
    public init(
        perHostConnections: Int = 6, connectTimeout: Duration = .seconds(10),
        addressPolicy: AddressPolicy = .standard, resolver: any HostResolver = SystemResolver(),
        pinLifetime: Duration = .seconds(60), maxDecodedBodySize: Int = 64 << 20, keepAlive: Duration? = .seconds(60)
    ) {
        let configuration = Self.configuration(
            perHostConnections: perHostConnections, connectTimeout: connectTimeout, maxDecoded: maxDecodedBodySize,
            keepAlive: keepAlive)
        self.closesConnections = (keepAlive ?? .zero) <= .zero
        self.client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        self.ownsClient = true
        self.addressPolicy = addressPolicy
        self.pins =
            addressPolicy.checksNothing
            ? nil
            : PinnedClients(policy: addressPolicy, resolver: resolver, lifetime: pinLifetime) { host, address in
                var pinned = configuration
                pinned.dnsOverride = [host: address.description]
                return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: pinned)
            }
    }

    /// A loader over a client you configured and shut down yourself, with no address policy
    /// (the client resolves and connects as it likes). Configure it not to follow redirects
    /// (`.disallow`) so the downloader's redirect rules apply.
    public init(client: HTTPClient) {
        self.client = client
        self.ownsClient = false
        self.addressPolicy = .allowAll
        self.pins = nil
        self.closesConnections = false
    }

    private static func configuration(
        perHostConnections: Int, connectTimeout: Duration, maxDecoded: Int, keepAlive: Duration?
    ) -> HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        if let keepAlive, keepAlive > .zero {
            configuration.connectionPool.idleTimeout = .nanoseconds(Int64(keepAlive.nanoseconds))
        }
        configuration.redirectConfiguration = .disallow
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = max(1, perHostConnections)
        configuration.timeout = HTTPClient.Configuration.Timeout(
            connect: .nanoseconds(Int64(connectTimeout.nanoseconds)))
        // Origins that store images gzipped (S3 objects uploaded with `Content-Encoding: gzip`)
        // send them so whatever is asked: bodies are inflated as they stream, 16 KiB at a time,
        // and the inflated bytes count against the limits (as imgproxy does).
        configuration.decompression = .enabled(limit: .size(max(1, maxDecoded)))
        // A connection that cannot be made fails its requests at once (the downloader's retry
        // strategy decides about trying again), instead of the pool trying again until the connect
        // timeout has passed (AsyncHTTPClient issue #743).
        configuration.connectionPool.retryConnectionEstablishment = false
        return configuration
    }

    /// The client to send `url` with, and the pin it holds (released when the request ends).
    private func connection(for url: URL) async throws -> (HTTPClient, PinnedClients.Lease?) {
        guard let pins else { return (client, nil) }
        guard let host = url.host, !host.isEmpty else { throw ImageDownloadError.invalidURL(url.absoluteString) }
        let port = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
        if let ports = addressPolicy.allowedPorts, !ports.contains(port) {
            throw ImageDownloadError.addressDenied(host: host, reason: "port \(port)")
        }
        if let literal = IPAddress(host) {
            if let denied = addressPolicy.denial(of: literal) {
                throw ImageDownloadError.addressDenied(host: host, reason: denied.description)
            }
            return (client, nil)
        }
        let lease = try await pins.acquire(host: host, port: port)
        return (lease.client, lease)
    }

    public func load(_ request: DataRequest, progress: @escaping @Sendable (Int, Int?) -> Void) async throws
        -> DataResponse
    {
        let http: HTTPClient.Request
        do {
            var headers = HTTPHeaders()
            for field in request.headers { headers.add(name: field.name, value: field.value) }
            if closesConnections { headers.replaceOrAdd(name: "Connection", value: "close") }
            http = try HTTPClient.Request(url: request.url.absoluteString, method: .GET, headers: headers)
        } catch {
            throw ImageDownloadError.invalidURL(request.url.absoluteString)
        }
        // At most a day: NIO deadlines do not take unbounded amounts.
        let timeoutNanos = Int64(min(max(0, request.timeout.nanoseconds), 86_400 * 1_000_000_000))
        let receiver = BodyReceiver(request: request, progress: progress)
        let (client, lease) = try await connection(for: request.url)
        var connectionFailed = false
        defer {
            if let lease, let host = request.url.host {
                pins?.release(lease, host: host, connectionFailed: connectionFailed)
            }
        }
        let task = client.execute(request: http, delegate: receiver, deadline: .now() + .nanoseconds(timeoutNanos))
        do {
            return try await withTaskCancellationHandler {
                try await task.futureResult.get()
            } onCancel: {
                task.cancel()
            }
        } catch let error as ImageDownloadError {
            throw error
        } catch let cut as DataTransferInterrupted {
            throw cut
        } catch is BodyReceiver.Drained {
            // An unwanted answer with a large body: its head is all that is needed.
            return receiver.head(of: request)
        } catch {
            if Task.isCancelled { throw CancellationError() }
            let failure = Self.failure(error, request: request)
            // A deadline that passes mid-body is a timeout, not a truncated body.
            switch failure {
            case .timedOut: throw receiver.interrupted(failure)
            case .shutDown, .invalidURL: throw failure
            default: break
            }
            if let truncated = receiver.truncation() { throw receiver.interrupted(truncated) }
            connectionFailed = !receiver.answered && failure.isConnectFailure
            throw receiver.interrupted(failure)
        }
    }

    public func shutdown() async throws {
        try await pins?.shutdown()
        if ownsClient { try await client.shutdown() }
    }

    /// Starts shutting the loader's own clients down without waiting (for a deinit).
    func shutdownNow() {
        pins?.shutdownNow()
        if ownsClient { client.shutdown { _ in } }
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
