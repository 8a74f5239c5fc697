#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Per-request download settings.
public struct DownloadOptions: Sendable {
    /// Extra header fields (after the downloader's defaults; the same name replaces a default).
    public var headers: [HTTPHeaderField]
    /// Overrides the downloader's timeout.
    public var timeout: Duration?
    /// Changes the request before it is sent (sign it, add a token); may suspend and may fail.
    public var requestModifier: (@Sendable (DataRequest) async throws -> DataRequest)?
    /// Decides each redirect: return the request to follow (changed if you like) or `nil` to
    /// stop, which fails the download with ``ImageDownloadError/redirectRefused(status:location:)``.
    public var redirectHandler: (@Sendable (_ response: DataResponse, _ next: DataRequest) async -> DataRequest?)?
    /// Overrides the downloader's retry strategy.
    public var retryStrategy: RetryStrategy?
    /// Download even when the URL is remembered as failed.
    public var ignoresFailedURLMemory: Bool
    /// Makes the request conditional on what a cache holds: `If-None-Match` from the ETag,
    /// `If-Modified-Since` from Last-Modified. A `304 Not Modified` answer then succeeds with
    /// ``ImageDownloadResult/notModified`` set and no body; without validators it is a plain
    /// request.
    public var revalidating: ResponseValidators?

    public init(
        headers: [HTTPHeaderField] = [], timeout: Duration? = nil,
        requestModifier: (@Sendable (DataRequest) async throws -> DataRequest)? = nil,
        redirectHandler: (@Sendable (DataResponse, DataRequest) async -> DataRequest?)? = nil,
        retryStrategy: RetryStrategy? = nil, ignoresFailedURLMemory: Bool = false,
        revalidating: ResponseValidators? = nil
    ) {
        self.revalidating = revalidating
        self.headers = headers
        self.timeout = timeout
        self.requestModifier = requestModifier
        self.redirectHandler = redirectHandler
        self.retryStrategy = retryStrategy
        self.ignoresFailedURLMemory = ignoresFailedURLMemory
    }
}

/// A finished download.
public struct ImageDownloadResult: Sendable {
    /// The body: bytes that sniff as an image (unless the downloader was told not to check).
    public var data: [UInt8]
    /// The URL asked for, and the one that answered (after redirects).
    public var url: URL
    public var finalURL: URL
    public var statusCode: Int
    public var format: ImageFormat
    /// The response's validators and content type (after a 304, the ones it confirmed).
    public var validators: ResponseValidators
    /// Whether this caller joined a download another caller started.
    public var coalesced: Bool
    /// A conditional request (``DownloadOptions/revalidating``) was answered `304 Not Modified`:
    /// what the cache holds is current, and `data` is empty.
    public var notModified: Bool
    /// What the response said about caching it.
    public var cacheHeaders: HTTPCacheHeaders
    /// When the response arrived (the downloader's clock), for ``HTTPCacheHeaders/freshnessLifetime(receivedAt:)``.
    public var receivedAt: Date
    /// Bytes of a cut attempt that a range request continued, not fetched again (see `ResumableBody`).
    public var resumedBytes = 0
}

/// What a download did, for observers.
public struct DownloadMetrics: Sendable, Hashable {
    public var url: URL
    public var bytes: Int
    public var duration: Duration
    /// The last status seen (0 when no response came).
    public var statusCode: Int
    /// Callers that shared this download (1 when nobody joined).
    public var callers: Int
    /// Attempts made (1 plus retries).
    public var attempts: Int
    public var redirects: Int
    /// A revalidation: the request carried `If-None-Match` or `If-Modified-Since` (a `statusCode`
    /// of 304 says the cached copy was confirmed).
    public var conditional = false
    /// Bytes a cut attempt had received that a range request continued (not fetched again).
    public var resumedBytes = 0
}

/// Events a downloader reports to its observers, on the downloading task.
public enum DownloadEvent: Sendable {
    /// A request is about to go out (once per download, not per retry).
    case willDownload(URL)
    /// A caller joined a download already running.
    case coalesced(URL)
    /// A download finished; `error` is `nil` on success.
    case didFinish(DownloadMetrics, error: ImageDownloadError?)
    /// A download stopped because every caller left (the HTTP request is cancelled).
    case didCancel(URL)
    /// A download failed and will be tried again after `delay`.
    case willRetry(URL, attempt: Int, delay: Duration, error: ImageDownloadError)
}

extension ImageDownloader.Config {
    /// The default `Accept` header: the media types of the formats this build decodes, the web's
    /// most compact first ("image/avif,image/webp,image/png,image/jpeg,image/gif"), then the others
    /// it reads at a lower weight (`image/tiff;q=0.5`: an origin that negotiates should not pick a
    /// TIFF over a JPEG), and nothing else: no `image/*` or `*/*` that would invite a format it
    /// cannot read.
    public static var acceptedMediaTypes: String {
        ImageFormat.decodable.compactMap { format in
            format.mediaType.map { ImageFormat.preferred.contains(format) ? $0 : $0 + ";q=0.5" }
        }.joined(separator: ",")
    }
}
