/// The cache builders: layers, expiry, keys, target and original caches.
extension ImageOptionsMaker {
    /// `cache`: memory and disk together, or one layer through `memory` / `disk`.
    public struct CacheMaker {
        let maker: ImageOptionsMaker

        public var memory: CacheLayerMaker { CacheLayerMaker(maker: maker, layer: .memory) }
        public var disk: CacheLayerMaker { CacheLayerMaker(maker: maker, layer: .disk) }
        public var key: CacheKeyMaker { CacheKeyMaker(maker: maker) }

        /// Both layers expire after `expiration`.
        @discardableResult
        public func expires(_ expiration: StorageExpiration, fileID: String = #fileID, line: Int = #line) -> CacheMaker
        {
            memory.expires(expiration, fileID: fileID, line: line)
            disk.expires(expiration, fileID: fileID, line: line)
            return self
        }
        /// How reads extend expiry, both layers.
        @discardableResult
        public func extendsOnAccess(_ extending: ExpirationExtending, fileID: String = #fileID, line: Int = #line)
            -> CacheMaker
        {
            memory.extendsOnAccess(extending, fileID: fileID, line: line)
            disk.extendsOnAccess(extending, fileID: fileID, line: line)
            return self
        }
        /// Return only after the disk write finished (``ImageOptions/CacheOptions/waitForCache``).
        @discardableResult
        public func waitForCache(fileID: String = #fileID, line: Int = #line) -> CacheMaker {
            maker.record(.waitForCache, SourceLine(fileID: fileID, line: line)) { $0.cache.waitForCache = true }
            return self
        }
        /// Whether the origin's caching headers decide freshness and revalidation, and keep
        /// `no-store`, `Vary: *` and uncredentialed `private` responses off the disk
        /// (``ImageOptions/CacheOptions/HTTPCaching/respectsHeaders``; on unless turned off here).
        @discardableResult
        public func respectingHTTPHeaders(_ respects: Bool = true, fileID: String = #fileID, line: Int = #line)
            -> CacheMaker
        {
            maker.record(.httpHeaders, SourceLine(fileID: fileID, line: line)) {
                $0.cache.http.respectsHeaders = respects
            }
            return self
        }
        /// Ask the origin about every disk hit with validators, fresh or not, with a conditional
        /// request (``ImageOptions/ReadPolicy/revalidate``; curl's `-z`).
        @discardableResult
        public func revalidatingAlways(fileID: String = #fileID, line: Int = #line) -> CacheMaker {
            let at = SourceLine(fileID: fileID, line: line)
            maker.record(.readPolicy, at) { $0.readPolicy = .revalidate }
            // A slot of its own too, for the contradiction with a memory-only cache.
            maker.record(.revalidatingAlways, at) { _ in }
            return self
        }
        /// Serve stale disk entries with validators beyond what their `stale-while-revalidate`
        /// and `stale-if-error` allow: at once while one background revalidation runs, and when
        /// revalidating fails (``ImageOptions/CacheOptions/HTTPCaching/servesStaleWhileRevalidating``,
        /// ``ImageOptions/CacheOptions/HTTPCaching/servesStaleOnError``).
        @discardableResult
        public func servingStale(
            whileRevalidating: Bool = false, onError: Bool = false, fileID: String = #fileID, line: Int = #line
        ) -> CacheMaker {
            maker.record(.servingStale, SourceLine(fileID: fileID, line: line)) {
                $0.cache.http.servesStaleWhileRevalidating = whileRevalidating
                $0.cache.http.servesStaleOnError = onError
            }
            return self
        }
        /// Give responses that state no lifetime the freshness browsers give them, a tenth of the
        /// time since `Last-Modified` (``ImageOptions/CacheOptions/HTTPCaching/usesHeuristicFreshness``), instead of the
        /// cache's own lifetime.
        @discardableResult
        public func heuristicFreshness(fileID: String = #fileID, line: Int = #line) -> CacheMaker {
            maker.record(.heuristicFreshness, SourceLine(fileID: fileID, line: line)) {
                $0.cache.http.usesHeuristicFreshness = true
            }
            return self
        }
        /// Also keep the downloaded bytes (under the plain key), in `cache` or the target cache.
        @discardableResult
        public func original(in cache: ImageCache? = nil, fileID: String = #fileID, line: Int = #line) -> CacheMaker {
            maker.record(.original, SourceLine(fileID: fileID, line: line)) {
                $0.cache.storesOriginal = true
                $0.cache.originalCache = cache
            }
            return self
        }
        /// Cache in `cache` instead of the manager's.
        @discardableResult
        public func target(_ cache: ImageCache, fileID: String = #fileID, line: Int = #line) -> CacheMaker {
            maker.record(.target, SourceLine(fileID: fileID, line: line)) { $0.cache.target = cache }
            return self
        }
        @discardableResult
        public func serializer(_ serializer: any CacheSerializer, fileID: String = #fileID, line: Int = #line)
            -> CacheMaker
        {
            maker.record(.serializer, SourceLine(fileID: fileID, line: line)) { $0.cache.serializer = serializer }
            return self
        }
        public var and: CacheMaker { self }
        public var with: CacheMaker { self }
    }

    /// `cache.memory` or `cache.disk`.
    public struct CacheLayerMaker {
        let maker: ImageOptionsMaker
        let layer: CacheLayer

        @discardableResult
        public func expires(_ expiration: StorageExpiration, fileID: String = #fileID, line: Int = #line)
            -> CacheLayerMaker
        {
            maker.record(.expires(layer), SourceLine(fileID: fileID, line: line)) {
                if layer == .memory {
                    $0.cache.memory.expiration = expiration
                } else {
                    $0.cache.disk.expiration = expiration
                }
            }
            return self
        }
        @discardableResult
        public func extendsOnAccess(_ extending: ExpirationExtending, fileID: String = #fileID, line: Int = #line)
            -> CacheLayerMaker
        {
            maker.record(.extendsOnAccess(layer), SourceLine(fileID: fileID, line: line)) {
                if layer == .memory {
                    $0.cache.memory.extendsOnAccess = extending
                } else {
                    $0.cache.disk.extendsOnAccess = extending
                }
            }
            return self
        }
        /// `cache.memory.only()`: nothing goes to disk.
        @discardableResult
        public func only(fileID: String = #fileID, line: Int = #line) -> CacheLayerMaker {
            let at = SourceLine(fileID: fileID, line: line)
            if layer == .memory {
                maker.record(.memoryOnly, at) { $0.cache.memoryOnly = true }
            } else {
                maker.invalid(
                    "cache.disk.only is not an option (use cache.memory.only or fromMemoryCacheOrRefresh)", at)
            }
            return self
        }
        /// Back to the composite, for the other layer: `.and.disk…`.
        public var and: CacheMaker { CacheMaker(maker: maker) }
        public var with: CacheLayerMaker { self }
    }

    /// `cache.key`: how the cache key is made.
    public struct CacheKeyMaker {
        let maker: ImageOptionsMaker

        /// Drop these query items from the URL's key (signatures, tokens).
        @discardableResult
        public func ignoringQuery(_ names: String..., fileID: String = #fileID, line: Int = #line) -> CacheKeyMaker {
            maker.record(.keyIgnoringQuery, SourceLine(fileID: fileID, line: line)) {
                $0.cache.ignoredQueryItems.formUnion(names)
            }
            return self
        }
        /// Cache under exactly this key.
        @discardableResult
        public func equalTo(_ key: String, fileID: String = #fileID, line: Int = #line) -> CacheKeyMaker {
            maker.record(.keyEqualTo, SourceLine(fileID: fileID, line: line)) { $0.cache.key = key }
            return self
        }
        public var and: CacheKeyMaker { self }
    }
}
