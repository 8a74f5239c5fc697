import Logging

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Downloads image bytes: coalesces concurrent requests for the same resource, bounds downloads
/// per host, follows redirects, retries transient failures and remembers hard ones for a while
/// (Kingfisher's `ImageDownloader`, SDWebImage's `SDWebImageDownloader`).
///
/// Requests are the same resource when their normalised URL and the request headers that can
/// change the response (after the request modifier) are equal: two users with different
/// `Authorization` headers never share a download. Each caller cancels only itself; the request
/// is cancelled when its last caller leaves. Shut the downloader down when you are done with it.
public final class ImageDownloader: Sendable {
    public struct Config: Sendable {
        /// Time for a whole request, body included. 15 s.
        public var timeout: Duration
        /// How long the HTTP client keeps trying to connect (it retries refused connections
        /// within this time). 10 s.
        public var connectTimeout: Duration
        /// How long an idle connection to an origin is kept for the next request to it; `nil`:
        /// none is kept (each request asks `Connection: close`). 60 s.
        public var keepAliveTimeout: Duration? = .seconds(60)
        /// Downloads running at once per host; more wait their turn. 6.
        public var maxConcurrentDownloadsPerHost: Int
        /// Requests running at once, all hosts together (`nil`: no bound but the per-host one).
        /// A server sets it so that dead or slow origins cannot hold every connection it has.
        public var maxConcurrentDownloads: Int? = nil
        public var acceptableStatusCodes: Range<Int>
        /// Redirects followed at most. 5.
        public var maxRedirects: Int
        /// Largest body accepted. 64 MiB.
        public var maxBodySize: Int
        /// Fail bodies that do not sniff as an image with ``ImageDownloadError/notAnImage(contentType:)``.
        public var requiresImageBody: Bool
        /// How long 404, 410 and non-image answers are remembered; `nil` to never remember. 5 min.
        public var failedURLTTL: Duration?
        /// `nil`: no retries (Kingfisher's default).
        public var retryStrategy: RetryStrategy?
        /// Sent with every request (a request's own headers replace same-named ones).
        public var defaultHeaders: [HTTPHeaderField]
        /// Header names left out of the coalescing fingerprint (they do not change the response).
        public var headersIgnoredForCoalescing: Set<String>
        /// Header names (besides `Authorization`, `Proxy-Authorization` and `Cookie`, always
        /// dropped) removed from a request that a redirect takes to another origin (scheme, host
        /// or port). Case-insensitive.
        public var sensitiveHeaders: Set<String>
        /// Where the HTTP transport may connect (``AddressPolicy/standard``: anywhere but
        /// link-local addresses). A server that fetches strangers' URLs sets
        /// ``AddressPolicy/publicOnly``.
        public var addressPolicy: AddressPolicy = .standard
        /// Resolves host names for the address policy (the system's `getaddrinfo`).
        public var resolver: any HostResolver = SystemResolver()
        /// How long a host stays on the address it resolved to before it is resolved and judged
        /// again. 60 s.
        public var pinLifetime: Duration = .seconds(60)
        /// Where `s3://bucket/key` URLs are read from (``S3DataLoader`` over the HTTP transport,
        /// so the address policy judges the endpoint); nil: no `s3` transport unless given.
        public var s3: S3Configuration? = nil
        /// Whether a retry continues a cut body with a range request where the response allows
        /// it (`ResumableBody`), instead of starting it over. On.
        public var resumesDownloads = true
        /// Whether a request carries the caller's trace context (`traceparent`, `tracestate`) to
        /// the origin when a tracer is bootstrapped. On; a service that fetches strangers' URLs
        /// may keep its trace IDs to itself (imgproxy's `IMGPROXY_OPEN_TELEMETRY_PROPAGATE_EXTERNAL`
        /// is off by default, and so is `magpie-server --otel-propagate-external`).
        public var propagatesTraceContext = true

        public init(
            timeout: Duration = .seconds(15), connectTimeout: Duration = .seconds(10),
            maxConcurrentDownloadsPerHost: Int = 6,
            acceptableStatusCodes: Range<Int> = 200..<300, maxRedirects: Int = 5, maxBodySize: Int = 64 << 20,
            requiresImageBody: Bool = true, failedURLTTL: Duration? = .seconds(300),
            retryStrategy: RetryStrategy? = nil,
            defaultHeaders: [HTTPHeaderField] = [
                HTTPHeaderField("Accept", Config.acceptedMediaTypes),
                HTTPHeaderField("User-Agent", "Magpie/\(MagpieCore.version)"),
            ],
            headersIgnoredForCoalescing: Set<String> = [
                "user-agent", "connection", "keep-alive", "priority", "traceparent", "tracestate", "x-request-id",
            ],
            sensitiveHeaders: Set<String> = []
        ) {
            self.sensitiveHeaders = Set(sensitiveHeaders.map { $0.lowercased() })
            self.timeout = timeout
            self.connectTimeout = connectTimeout
            self.maxConcurrentDownloadsPerHost = max(1, maxConcurrentDownloadsPerHost)
            self.acceptableStatusCodes = acceptableStatusCodes
            self.maxRedirects = max(0, maxRedirects)
            self.maxBodySize = maxBodySize
            self.requiresImageBody = requiresImageBody
            self.failedURLTTL = failedURLTTL
            self.retryStrategy = retryStrategy
            self.defaultHeaders = defaultHeaders
            self.headersIgnoredForCoalescing = Set(headersIgnoredForCoalescing.map { $0.lowercased() })
        }
    }

    /// Counts since creation.
    public struct Statistics: Sendable, Hashable {
        /// Downloads started (each may make several requests).
        public var downloads = 0
        /// Requests sent (retries and redirects included).
        public var requests = 0
        /// Callers served by a download another caller started.
        public var coalesced = 0
        public var failures = 0
        public var retries = 0
        /// Calls refused because the URL failed recently.
        public var rememberedFailures = 0
        public var bytes = 0
        /// Downloads sent as conditional requests, and those answered `304 Not Modified`.
        public var conditionalRequests = 0
        public var notModified = 0
        /// Cut bodies continued by a range request, and the bytes those did not fetch again.
        public var resumes = 0
        public var resumedBytes = 0
    }

    public let config: Config
    let transports: [String: any DataLoading]
    let ownedTransports: [any DataLoading]
    let coalescer = Coalescer<String, DownloadOutcome>()
    let hosts: AsyncLimiter<String>
    /// The bound on all requests together, when the config sets one.
    let allHosts: AsyncSemaphore?
    let failed = Locked<[String: (until: Double, error: ImageDownloadError)]>([:])
    /// Size of the failed-URL memory that triggers the next sweep (doubles with what survives).
    let failedSweepAt = Locked(4096)
    let stats = Locked(Statistics())
    let observers = Locked<[UInt64: @Sendable (DownloadEvent) -> Void]>([:])
    let nextObserver = Locked<UInt64>(0)
    let isShutDown = Locked(false)
    let clock: any CacheClock
    let sleep: @Sendable (Duration) async throws -> Void
    let logger: Logger

    /// A downloader with its own HTTP client (AsyncHTTPClient) and the `file://` transport.
    /// - Parameters:
    ///   - config: timeouts, limits, retries, the address policy and the S3 settings.
    ///   - transports: loaders by URL scheme, replacing or adding to the defaults (`http`,
    ///     `https`, `file`, and `s3` when the config has ``Config/s3``).
    ///   - clock: time for the failed-URL memory.
    ///   - sleep: waits between retries (tests pass one that records the delays).
    ///   - logger: where retries, refusals and failures are logged.
    public init(
        config: Config = Config(), transports: [String: any DataLoading] = [:],
        clock: any CacheClock = SystemCacheClock(),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        logger: Logger = Logger(label: "magpie.downloader")
    ) {
        self.config = config
        var all = transports
        var owned: [any DataLoading] = []
        if all["http"] == nil || all["https"] == nil {
            let http = HTTPDataLoader(
                perHostConnections: config.maxConcurrentDownloadsPerHost, connectTimeout: config.connectTimeout,
                addressPolicy: config.addressPolicy, resolver: config.resolver, pinLifetime: config.pinLifetime,
                maxDecodedBodySize: config.maxBodySize, keepAlive: config.keepAliveTimeout)
            owned.append(http)
            if all["http"] == nil { all["http"] = http }
            if all["https"] == nil { all["https"] = http }
        }
        if all["file"] == nil { all["file"] = FileDataLoader() }
        if let s3 = config.s3, all["s3"] == nil, let http = all[s3.endpoint?.scheme?.lowercased() ?? "https"] {
            all["s3"] = S3DataLoader(configuration: s3, http: http)
        }
        self.transports = all
        self.ownedTransports = owned
        self.hosts = AsyncLimiter(limit: config.maxConcurrentDownloadsPerHost)
        self.allHosts = config.maxConcurrentDownloads.map { AsyncSemaphore(limit: max(1, $0)) }
        self.clock = clock
        self.sleep = sleep
        self.logger = logger
    }

    deinit {
        // An HTTP client must be shut down before it goes; do it for callers who forgot.
        if !isShutDown.withLock({ $0 }) {
            for transport in ownedTransports {
                if let http = transport as? HTTPDataLoader { http.shutdownNow() }
            }
        }
    }

    /// Shuts down the transports this downloader made. Later downloads fail with ``ImageDownloadError/shutDown``.
    public func shutdown() async throws {
        let already = isShutDown.withLock { s -> Bool in
            defer { s = true }
            return s
        }
        if already { return }
        for transport in ownedTransports { try await transport.shutdown() }
    }

    public var statistics: Statistics { stats.withLock { $0 } }

    /// Downloads running now (each possibly shared by several callers).
    public var downloadsInFlight: Int { coalescer.inFlight }
    /// Callers waiting on downloads right now.
    public var callersWaiting: Int { coalescer.waiting }
    /// Requests waiting for a slot under ``Config/maxConcurrentDownloads`` right now.
    public var requestsQueued: Int { allHosts?.load.waiting ?? 0 }

    /// Calls `observer` for every event from now on; returns a token for ``removeObserver(_:)``.
    @discardableResult
    public func addObserver(_ observer: @escaping @Sendable (DownloadEvent) -> Void) -> UInt64 {
        let id = nextObserver.withLock { n -> UInt64 in
            n += 1
            return n
        }
        observers.withLock { $0[id] = observer }
        return id
    }

    public func removeObserver(_ token: UInt64) { _ = observers.withLock { $0.removeValue(forKey: token) } }

    func emit(_ event: @autoclosure () -> DownloadEvent) {
        guard let current = observers.withLock({ $0.isEmpty ? nil : Array($0.values) }) else { return }
        let event = event()
        for observer in current { observer(event) }
    }

    // MARK: - downloading

    /// ``download(_:options:progress:)`` within its span; the trace context, when a tracer is
    /// bootstrapped, goes out in its propagator's fields (`traceparent` for W3C), added after the
    /// coalescing key is made.
    func downloadInSpan(
        _ url: URL, options: DownloadOptions, progress: (@Sendable (Int, Int?) -> Void)?
    ) async throws -> ImageDownloadResult {
        if isShutDown.withLock({ $0 }) { throw ImageDownloadError.shutDown }
        var request: DataRequest
        if let modifier = options.requestModifier {
            // The URL is checked once, after the modifier: it may replace one that is not valid
            // (a placeholder, a relative path) with one that is.
            do {
                request = try await modifier(baseRequest(url, options, checkingURL: false))
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                throw ImageDownloadError.requestModifierFailed(String(describing: error))
            }
            try prepareURL(&request)
        } else {
            request = try baseRequest(url, options)
        }
        // The key first: whatever fields the tracer's propagator adds (W3C's, B3's, baggage) differ
        // per caller and never keep two callers from sharing a download.
        let key = coalescingKey(request)
        if config.propagatesTraceContext { Self.injectTraceContext(into: &request.headers) }
        if !options.ignoresFailedURLMemory {
            let now = clock.now().timeIntervalSinceReferenceDate
            let remembered = failed.withLock { f -> (until: Double, error: ImageDownloadError)? in
                guard let entry = f[key] else { return nil }
                if entry.until <= now {
                    f[key] = nil
                    return nil
                }
                return entry
            }
            if let remembered {
                stats.withLock { $0.rememberedFailures += 1 }
                throw ImageDownloadError.recentlyFailed(reason: remembered.error, until: remembered.until)
            }
        }
        let retry = options.retryStrategy ?? config.retryStrategy
        let redirectHandler = options.redirectHandler
        let prepared = request
        let (outcome, joined) = try await coalescer.value(for: key, progress: progress) { context in
            try await self.perform(prepared, key: key, retry: retry, redirectHandler: redirectHandler, context: context)
        }
        if joined {
            stats.withLock { $0.coalesced += 1 }
            emit(.coalesced(url))
        }
        return ImageDownloadResult(
            data: outcome.body, url: url, finalURL: outcome.finalURL, statusCode: outcome.statusCode,
            format: outcome.format, validators: outcome.validators, coalesced: joined,
            notModified: outcome.statusCode == 304, cacheHeaders: outcome.cacheHeaders, receivedAt: outcome.receivedAt,
            resumedBytes: outcome.resumedBytes)
    }

    struct DownloadOutcome: Sendable {
        var body: [UInt8]
        var finalURL: URL
        var statusCode: Int
        var format: ImageFormat
        var validators: ResponseValidators
        var cacheHeaders: HTTPCacheHeaders
        var receivedAt: Date
        var resumedBytes = 0
    }
}
