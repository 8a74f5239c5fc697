extension ImageOptions {
    /// How one retrieval reads and writes the caches (the DSL's `cache`).
    public struct CacheOptions: Sendable, Hashable {
        /// Expiry of one cache layer, and how a read extends it (`cache.memory`, `cache.disk`).
        public struct Layer: Sendable, Hashable {
            /// Expiry of what is stored (`nil`: the cache's own).
            public var expiration: StorageExpiration?
            /// How a hit extends the entry's expiry.
            public var extendsOnAccess: ExpirationExtending = .cacheTime
            public init(expiration: StorageExpiration? = nil, extendsOnAccess: ExpirationExtending = .cacheTime) {
                self.expiration = expiration
                self.extendsOnAccess = extendsOnAccess
            }
        }

        /// What the origin's caching headers decide (the DSL's `cache.respectingHTTPHeaders`,
        /// `cache.servingStale`, `cache.heuristicFreshness`).
        public struct HTTPCaching: Sendable, Hashable {
            /// Follow what the origin says about caching its response (on by default):
            /// `Cache-Control: max-age` (or `Expires`, less `Age`) sets how long the cached image
            /// is fresh, within the memory and disk expirations (never longer); a stale disk entry
            /// with validators (ETag, Last-Modified) is revalidated with a conditional request,
            /// and a `304 Not Modified` renews it without a download or a decode; `no-cache` (or
            /// `max-age=0`) stores but revalidates before every use; `stale-while-revalidate` and
            /// `stale-if-error` allow serving a stale image as they say; `no-store`, `Vary: *`,
            /// and `private` on a request without credentials keep the image out of the disk
            /// cache (memory only, this call).
            public var respectsHeaders = true
            /// Serve any stale disk entry with validators at once, and revalidate it in the
            /// background (one request per entry at a time), as `stale-while-revalidate` allows
            /// for its window.
            public var servesStaleWhileRevalidating = false
            /// When revalidating a stale entry fails (the origin is down, times out or answers
            /// 5xx), serve the stale image instead of failing, as `stale-if-error` allows for its
            /// window.
            public var servesStaleOnError = false
            /// A response that states no lifetime (no `max-age`, no `Expires`) is fresh for as
            /// long as the caches keep it, as Kingfisher, SDWebImage and Nuke keep such images.
            /// With this on it gets the heuristic freshness browsers give it instead (RFC 9111
            /// §4.2.2): a tenth of the time since its `Last-Modified`, at most a week, and none
            /// without one (stored when it has an ETag, and revalidated before every use; not kept
            /// when it has no validator either).
            public var usesHeuristicFreshness = false
            public init() {}
        }

        /// The memory layer's expiry.
        public var memory = Layer()
        /// The disk layer's expiry.
        public var disk = Layer()
        /// Store in memory only (`cache.memory.only()`).
        public var memoryOnly = false
        /// Return only after the disk write finished.
        public var waitForCache = false
        /// Also store the downloaded bytes under the plain key when a processor ran, so another
        /// processor can start from them without a download (`cache.original(in:)`).
        public var storesOriginal = false
        /// Where originals are read and written (default: the target cache).
        public var originalCache: ImageCache?
        /// The cache for this retrieval instead of the manager's.
        public var target: ImageCache?
        /// The serializer for disk writes (default: the target cache's).
        public var serializer: (any CacheSerializer)?
        /// Cache under this key instead of the source's (`cache.key.equalTo`).
        public var key: String?
        /// Query items dropped from network cache keys for this retrieval, on top of the
        /// manager's filter (`cache.key.ignoringQuery`).
        public var ignoredQueryItems: Set<String> = []
        /// What the origin's caching headers decide.
        public var http = HTTPCaching()

        public init() {}

        /// The cache layer's view of these options.
        var policy: CachePolicy {
            CachePolicy(
                memoryExpiration: memory.expiration, memoryExtending: memory.extendsOnAccess,
                diskExpiration: disk.expiration, diskExtending: disk.extendsOnAccess, serializer: serializer,
                writesToDisk: !memoryOnly, waitsForDisk: waitForCache)
        }

        /// Every field, with caches by identity and serializers by ``CacheSerializer/isEqual(to:)``.
        /// Field by field, building nothing: the coalescer hashes and compares these on every
        /// request (a fingerprint struct with two arrays and the serializer's description, made
        /// on each hash and comparison, was 3% of a cold thumbnail's CPU in the service).
        public static func == (a: Self, b: Self) -> Bool {
            a.memory == b.memory && a.disk == b.disk && a.memoryOnly == b.memoryOnly
                && a.waitForCache == b.waitForCache && a.storesOriginal == b.storesOriginal
                && a.originalCache.map(ObjectIdentifier.init) == b.originalCache.map(ObjectIdentifier.init)
                && a.target.map(ObjectIdentifier.init) == b.target.map(ObjectIdentifier.init) && a.key == b.key
                && a.ignoredQueryItems == b.ignoredQueryItems && a.http == b.http
                && Self.sameSerializer(a.serializer, b.serializer)
        }

        /// The serializer by its type only: equal serializers have equal types, so equal options
        /// still hash alike.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(memory)
            hasher.combine(disk)
            hasher.combine(memoryOnly)
            hasher.combine(waitForCache)
            hasher.combine(storesOriginal)
            hasher.combine(originalCache.map(ObjectIdentifier.init))
            hasher.combine(target.map(ObjectIdentifier.init))
            hasher.combine(serializer.map { ObjectIdentifier(type(of: $0)) })
            hasher.combine(key)
            hasher.combine(ignoredQueryItems)
            hasher.combine(http)
        }

        private static func sameSerializer(_ a: (any CacheSerializer)?, _ b: (any CacheSerializer)?) -> Bool {
            switch (a, b) {
            case (nil, nil): return true
            case (let a?, let b?): return a.isEqual(to: b)
            default: return false
            }
        }
    }
}
