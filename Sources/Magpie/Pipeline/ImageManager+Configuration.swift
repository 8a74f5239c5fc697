import Logging

extension ImageManager {
    /// What belongs to a manager rather than to one call (Nuke's `ImagePipeline.Configuration`):
    /// the cache and downloader it uses, how it makes cache keys, how wide it decodes, the clock
    /// its caching decisions read, its logger, and the options a call that gives none gets.
    /// Per-call settings are ``ImageOptions``; a call may still name another cache or downloader
    /// (``ImageOptions/CacheOptions/target``, ``ImageOptions/RequestOptions/downloader``).
    public struct Configuration: Sendable {
        /// The memory and disk caches.
        public var cache: ImageCache
        /// Downloads network sources.
        public var downloader: ImageDownloader
        /// Rewrites network URLs into cache keys (drop signature query items, say).
        public var cacheKeyFilter: CacheKeyFilter = .none
        /// Options used when a call gives none, and the base the DSL's settings apply to.
        public var defaultOptions = ImageOptions()
        /// Decodes and processings at a time (`nil`: the process-wide decoding executor, one per core).
        public var processingConcurrency: Int?
        /// The time the caching decisions read (freshness, stale windows, renewals); `nil`: the
        /// cache's clock, so one clock answers for the cache and the manager.
        public var clock: (any CacheClock)?
        public var logger = Logger(label: "magpie.manager")

        public init(cache: ImageCache, downloader: ImageDownloader = ImageDownloader()) {
            self.cache = cache
            self.downloader = downloader
        }
    }

    /// A manager over `cache`, with the rest of its configuration set by `configure`:
    ///
    ///     let manager = ImageManager(cache: cache) { $0.cacheKeyFilter = .droppingQueryItems(["sig"]) }
    public convenience init(
        cache: ImageCache, downloader: ImageDownloader = ImageDownloader(),
        _ configure: (inout Configuration) -> Void = { _ in }
    ) {
        var configuration = Configuration(cache: cache, downloader: downloader)
        configure(&configuration)
        self.init(configuration: configuration)
    }
}
