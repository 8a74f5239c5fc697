/// A request modifier with an identity, so options holding it stay `Hashable`.
public struct RequestModifier: Sendable, Hashable {
    private let id = IdentityToken()
    public let modify: @Sendable (DataRequest) async throws -> DataRequest
    public init(_ modify: @escaping @Sendable (DataRequest) async throws -> DataRequest) { self.modify = modify }
    public static func == (a: Self, b: Self) -> Bool { a.id == b.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// A redirect handler with an identity (see ``DownloadOptions/redirectHandler``).
public struct RedirectHandler: Sendable, Hashable {
    private let id = IdentityToken()
    public let decide: @Sendable (DataResponse, DataRequest) async -> DataRequest?
    public init(_ decide: @escaping @Sendable (DataResponse, DataRequest) async -> DataRequest?) {
        self.decide = decide
    }
    public static func == (a: Self, b: Self) -> Bool { a.id == b.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// A unique identity for values that hold closures or objects.
final class IdentityToken: Sendable, Hashable {
    static func == (a: IdentityToken, b: IdentityToken) -> Bool { a === b }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// Everything a retrieval can be told (Kingfisher's `KingfisherOptionsInfo`, as one value).
///
/// Build it directly, or with the constraint DSL (`ImageManager.image(from:_:)`). Options that
/// change the output pixels (processor, first frame only) feed the processor identifier and so
/// the cache key; transport options (timeout, retry, headers, priority) do not.
public struct ImageOptions: Sendable, Hashable {
    /// Where a retrieval may look and what it may skip: one value, so no two contradictory
    /// choices (refresh and cache only, say) can be written.
    public enum ReadPolicy: Sendable, Hashable {
        /// Memory, then disk (stale entries revalidated as their headers say), then the network.
        case cacheThenNetwork
        /// Skip the caches and download; the result is stored as usual (Kingfisher's
        /// `forceRefresh`).
        case refresh
        /// Never download: a miss fails with ``ImageRetrieveError/notCached(key:)`` (Kingfisher's
        /// `onlyFromCache`).
        case cacheOnly
        /// The memory cache, else download: the disk cache is skipped (Kingfisher's
        /// `fromMemoryCacheOrRefresh`).
        case memoryThenNetwork
        /// Ask the origin about every disk hit that has validators, fresh or not, with a
        /// conditional request (curl's `-z`; an `immutable` entry that is still fresh is not
        /// asked about). Memory hits are skipped.
        case revalidate
    }

    // Cache behaviour
    /// Where the retrieval may look (default: memory, disk, network).
    public var readPolicy: ReadPolicy = .cacheThenNetwork
    /// ``ReadPolicy/refresh``.
    public var forceRefresh: Bool { readPolicy == .refresh }
    /// ``ReadPolicy/cacheOnly``.
    public var onlyFromCache: Bool { readPolicy == .cacheOnly }
    /// ``ReadPolicy/memoryThenNetwork``.
    public var fromMemoryCacheOrRefresh: Bool { readPolicy == .memoryThenNetwork }
    /// Store in memory only.
    public var cacheMemoryOnly = false
    /// Return only after the disk write finished.
    public var waitForCache = false
    /// Also store the downloaded bytes under the plain key when a processor ran, so another
    /// processor can start from them without a download.
    public var cacheOriginalImage = false
    /// The cache for this retrieval instead of the manager's.
    public var targetCache: ImageCache?
    /// Where originals are read and written (default: the target cache).
    public var originalCache: ImageCache?
    /// The downloader for this retrieval instead of the manager's.
    public var downloader: ImageDownloader?
    public var memoryCacheExpiration: StorageExpiration?
    public var memoryCacheAccessExtendingExpiration: ExpirationExtending = .cacheTime
    public var diskCacheExpiration: StorageExpiration?
    public var diskCacheAccessExtendingExpiration: ExpirationExtending = .cacheTime
    /// The serializer for disk writes (default: the target cache's).
    public var cacheSerializer: (any CacheSerializer)?
    /// Cache under this key instead of the source's.
    public var cacheKey: String?
    /// Query items dropped from network cache keys for this retrieval (on top of the manager's filter).
    public var ignoredQueryItems: Set<String> = []

    // Output
    /// Its ``ImageProcessor/identifier`` is read when it is set (see ``processorIdentifier``).
    public var processor: any ImageProcessor = DefaultImageProcessor() {
        didSet { processorIdentifier = Self.identifier(processor, onlyLoadFirstFrame) }
    }
    /// Decode and keep only an animation's first frame.
    public var onlyLoadFirstFrame = false {
        didSet { processorIdentifier = Self.identifier(processor, onlyLoadFirstFrame) }
    }
    /// Put the downloaded (or cached original) bytes in the result.
    public var keepsOriginalData = false

    // Transport
    public var headers: [HTTPHeaderField] = []
    public var timeout: Duration?
    public var requestModifier: RequestModifier?
    public var redirectHandler: RedirectHandler?
    public var retryStrategy: RetryStrategy?
    /// Tried in order when the source fails (not when the caller cancels).
    public var alternativeSources: [Source] = []
    /// Priority of the tasks the retrieval starts.
    public var priority: TaskPriority?
    /// Download even when the URL failed recently.
    public var ignoresFailedURLMemory = false
    /// Follow what the origin says about caching its response (on by default):
    /// `Cache-Control: max-age` (or `Expires`, less `Age`) sets how long the cached image is
    /// fresh, within the memory and disk expirations (never longer); a stale disk entry with
    /// validators (ETag, Last-Modified) is revalidated with a conditional request, and a
    /// `304 Not Modified` renews it without a download or a decode; `no-cache` (or `max-age=0`)
    /// stores but revalidates before every use; `stale-while-revalidate` and `stale-if-error`
    /// allow serving a stale image as they say; `no-store`, `Vary: *`, and `private` on a
    /// request without credentials keep the image out of the disk cache (memory only, this call).
    public var respectsHTTPCacheHeaders = true
    /// ``ReadPolicy/revalidate``.
    public var forceRevalidation: Bool { readPolicy == .revalidate }
    /// Serve any stale disk entry with validators at once, and revalidate it in the background
    /// (one request per entry at a time), as `stale-while-revalidate` allows for its window.
    public var servesStaleWhileRevalidating = false
    /// When revalidating a stale entry fails (the origin is down, times out or answers 5xx),
    /// serve the stale image instead of failing, as `stale-if-error` allows for its window.
    public var servesStaleOnError = false
    /// A response that states no lifetime (no `max-age`, no `Expires`) is fresh for as long as
    /// the caches keep it, as Kingfisher, SDWebImage and Nuke keep such images. With this on it
    /// gets the heuristic freshness browsers give it instead (RFC 9111 §4.2.2): a tenth of the
    /// time since its `Last-Modified`, at most a week, and none without one (stored when it has
    /// an ETag, and revalidated before every use; not kept when it has no validator either).
    public var usesHeuristicFreshness = false

    public init() {}

    /// The identifier cached images are keyed by: the processor's, plus first-frame-only. Kept
    /// up to date as those two are set, so a retrieval does not build it again.
    public private(set) var processorIdentifier = ""

    private static func identifier(_ processor: any ImageProcessor, _ firstFrameOnly: Bool) -> String {
        CacheKeys.processorIdentifier(processor, firstFrameOnly: firstFrameOnly)
    }

    var downloadOptions: DownloadOptions {
        DownloadOptions(
            headers: headers, timeout: timeout, requestModifier: requestModifier?.modify,
            redirectHandler: redirectHandler?.decide, retryStrategy: retryStrategy,
            ignoresFailedURLMemory: ignoresFailedURLMemory)
    }

    /// These options less what does not change a retrieval's result, so that two calls that
    /// differ only there share one flight: priority, timeout, retry strategy, the failed-URL
    /// memory, alternative sources (tried outside the flight) and whether the original bytes are
    /// returned (read outside it). The first caller's transport options apply to the shared work.
    var sharingKey: ImageOptions {
        var o = self
        o.priority = nil
        o.timeout = nil
        o.retryStrategy = nil
        o.ignoresFailedURLMemory = false
        o.alternativeSources = []
        o.keepsOriginalData = false
        return o
    }

    public static func == (a: ImageOptions, b: ImageOptions) -> Bool { a.fingerprint == b.fingerprint }
    public func hash(into hasher: inout Hasher) { hasher.combine(fingerprint) }

    /// Every field, with objects and closures by identity and processors by identifier.
    private var fingerprint: Fingerprint {
        Fingerprint(
            flags: [
                cacheMemoryOnly, waitForCache, cacheOriginalImage, onlyLoadFirstFrame, keepsOriginalData,
                ignoresFailedURLMemory, respectsHTTPCacheHeaders, servesStaleWhileRevalidating, servesStaleOnError,
                usesHeuristicFreshness,
            ],
            objects: [
                targetCache.map { ObjectIdentifier($0) }, originalCache.map { ObjectIdentifier($0) },
                downloader.map { ObjectIdentifier($0) },
            ],
            readPolicy: readPolicy, expirations: [memoryCacheExpiration, diskCacheExpiration],
            extending: [memoryCacheAccessExtendingExpiration, diskCacheAccessExtendingExpiration],
            serializer: cacheSerializer.map { String(reflecting: type(of: $0)) + String(describing: $0) },
            cacheKey: cacheKey, ignoredQueryItems: ignoredQueryItems, processor: processorIdentifier,
            headers: headers, timeout: timeout, requestModifier: requestModifier, redirectHandler: redirectHandler,
            retryStrategy: retryStrategy, alternativeSources: alternativeSources.map(\.rawCacheKey),
            priority: priority?.rawValue)
    }

    private struct Fingerprint: Hashable {
        var flags: [Bool]
        var objects: [ObjectIdentifier?]
        var readPolicy: ReadPolicy
        var expirations: [StorageExpiration?]
        var extending: [ExpirationExtending]
        var serializer: String?
        var cacheKey: String?
        var ignoredQueryItems: Set<String>
        var processor: String
        var headers: [HTTPHeaderField]
        var timeout: Duration?
        var requestModifier: RequestModifier?
        var redirectHandler: RedirectHandler?
        var retryStrategy: RetryStrategy?
        var alternativeSources: [String]
        var priority: UInt8?
    }
}
