/// What one retrieval is told (Kingfisher's `KingfisherOptionsInfo`, as one value), grouped as
/// the constraint DSL groups it: where it may read (``readPolicy``), what it makes (``processor``,
/// ``onlyLoadFirstFrame``), and then ``cache``, ``request`` and ``retry``.
///
/// Build it directly, or with the DSL (`ImageManager.image(from:_:)`, ``make(_:)``). What
/// changes the output pixels (processor, first frame only) feeds the processor identifier and so
/// the cache key; transport settings (``request``, ``retry``) never do. What belongs to the
/// manager rather than a call (its cache, downloader, key filter, decoding width, clock) is in
/// ``ImageManager/Configuration``.
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

        /// Whether a memory hit may answer.
        var readsMemory: Bool { self == .cacheThenNetwork || self == .cacheOnly || self == .memoryThenNetwork }
        /// Whether a disk entry may answer (perhaps after a revalidation).
        var readsDisk: Bool { self == .cacheThenNetwork || self == .cacheOnly || self == .revalidate }
    }

    /// Where the retrieval may look (default: memory, disk, network).
    public var readPolicy: ReadPolicy = .cacheThenNetwork
    /// Its `ImageProcessor/identifier` is read when it is set (see ``processorIdentifier``).
    public var processor: any ImageProcessor = DefaultImageProcessor() {
        didSet { processorIdentifier = Self.identifier(processor, onlyLoadFirstFrame) }
    }
    /// Decode and keep only an animation's first frame.
    public var onlyLoadFirstFrame = false {
        didSet { processorIdentifier = Self.identifier(processor, onlyLoadFirstFrame) }
    }
    /// Put the downloaded (or cached original) bytes in the result.
    public var keepsOriginalData = false
    /// Tried in order when the source fails (not when the caller cancels).
    public var alternativeSources: [Source] = []
    /// How the memory and disk caches are read and written.
    public var cache = CacheOptions()
    /// The HTTP request (transport only: never part of the cache key).
    public var request = RequestOptions()
    /// Retries of failed downloads (`nil`: the downloader's own strategy).
    public var retry: RetryStrategy?

    public init() {}

    /// The identifier cached images are keyed by: the processor's, plus first-frame-only. Kept
    /// up to date as those two are set, so a retrieval does not build it again.
    public private(set) var processorIdentifier = ""

    private static func identifier(_ processor: any ImageProcessor, _ firstFrameOnly: Bool) -> String {
        CacheKeys.processorIdentifier(processor, firstFrameOnly: firstFrameOnly)
    }

    var downloadOptions: DownloadOptions {
        DownloadOptions(
            headers: request.headers, timeout: request.timeout, requestModifier: request.modifier?.modify,
            redirectHandler: request.redirectHandler?.decide, retryStrategy: retry,
            ignoresFailedURLMemory: request.ignoresFailedURLMemory)
    }

    /// These options less what does not change a retrieval's result, so that two calls that
    /// differ only there share one flight: priority, timeout, retry strategy, the failed-URL
    /// memory, alternative sources (tried outside the flight) and whether the original bytes are
    /// returned (read outside it). The first caller's transport settings apply to the shared work.
    var sharingKey: ImageOptions {
        var o = self
        o.request.priority = nil
        o.request.timeout = nil
        o.request.ignoresFailedURLMemory = false
        o.retry = nil
        o.alternativeSources = []
        o.keepsOriginalData = false
        return o
    }

    public static func == (a: ImageOptions, b: ImageOptions) -> Bool {
        a.readPolicy == b.readPolicy && a.processorIdentifier == b.processorIdentifier
            && a.onlyLoadFirstFrame == b.onlyLoadFirstFrame && a.keepsOriginalData == b.keepsOriginalData
            && a.alternativeSources.map(\.rawCacheKey) == b.alternativeSources.map(\.rawCacheKey)
            && a.cache == b.cache && a.request == b.request && a.retry == b.retry
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(readPolicy)
        hasher.combine(processorIdentifier)
        hasher.combine(onlyLoadFirstFrame)
        hasher.combine(keepsOriginalData)
        hasher.combine(alternativeSources.map(\.rawCacheKey))
        hasher.combine(cache)
        hasher.combine(request)
        hasher.combine(retry)
    }
}
