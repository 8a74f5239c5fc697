import Logging

#if canImport(Glibc)
    import Glibc
#endif

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The pipeline (Kingfisher's `KingfisherManager`): memory cache → disk cache (processed key) →
/// disk original (processed again) → download → decode and process in the C core → store →
/// return.
///
/// Identical retrievals running at the same time share one download, one decode and one
/// processing run; retrievals of one URL with different processors share the download.
/// Decoding and processing run at most `processingConcurrency` at a time (the core count by
/// default); disk I/O runs on the caches' dispatch queues, never on the cooperative pool.
public final class ImageManager: Sendable {
    /// What the manager was made with.
    public let configuration: Configuration
    public var cache: ImageCache { configuration.cache }
    public var downloader: ImageDownloader { configuration.downloader }
    /// Rewrites network URLs into cache keys (see ``Configuration/cacheKeyFilter``).
    public var cacheKeyFilter: CacheKeyFilter { configuration.cacheKeyFilter }
    /// Options used when a call gives none.
    public var defaultOptions: ImageOptions { configuration.defaultOptions }
    /// Where decoding and processing run (``BlockingExecutor/decoding`` unless the manager was
    /// given its own width).
    let processing: BlockingExecutor
    let flights = Coalescer<FlightKey, Fetched>()
    /// Retrievals of bytes (``retrieveData(with:options:progress:)``) running now.
    let dataFlights = Coalescer<FlightKey, FetchedData>()
    /// The processor identifiers this manager stored images under lately (at most 32, newest
    /// last): a `304` renews the entries of each for the URL, not only the one asked for.
    let recentProcessors = Locked<[String]>([])
    /// Background revalidations running, by cache key (with processor).
    let backgroundRevalidations = Locked<[String: Task<Void, Never>]>([:])
    let stats = Locked(Statistics())
    /// Network sources whose bytes did not decode, by cache key (see ``undecodableFailure(forKey:options:)``).
    let undecodable = Locked<[String: (until: Double, why: String)]>([:])
    let logger: Logger
    /// The time the pipeline's caching decisions read (freshness, stale windows, renewals): the
    /// clock given, else the manager's cache's, so one clock answers for the cache and the manager.
    let clock: any CacheClock

    /// What a shared retrieval is keyed by: the cache key and every option that changes its
    /// result (``ImageOptions/sharingKey``), not the transport's (priority, timeout, retries).
    struct FlightKey: Hashable, Sendable {
        var key: String
        var options: ImageOptions

        init(key: String, options: ImageOptions) {
            self.key = key
            self.options = options.sharingKey
        }
    }

    struct Fetched: Sendable {
        var image: Image
        var data: [UInt8]?
        var cacheType: CacheType
        /// The bytes encoded for a store that waited for its disk write (served without a read
        /// back), and the source's freshness when this retrieval fetched or processed it.
        var stored: StoredBytes? = nil
        var freshness: EntryFreshness? = nil
    }

    struct StoredBytes: Sendable {
        var bytes: [UInt8]
        var lastModified: String?
        var freshness: EntryFreshness = .unlimited
    }

    public init(configuration: Configuration) {
        self.configuration = configuration
        self.clock = configuration.clock ?? configuration.cache.diskStorage.clock
        self.processing =
            configuration.processingConcurrency.map { BlockingExecutor(label: "magpie.manager.decode", width: $0) }
            ?? .decoding
        self.logger = configuration.logger
    }

    public var statistics: Statistics { stats.withLock { $0 } }

    /// Retrievals past the memory cache running now (each possibly shared by several callers).
    public var retrievalsInFlight: Int { flights.inFlight }
    /// Callers waiting on those retrievals right now.
    public var callersWaiting: Int { flights.waiting }
    /// Callers waiting on retrievals of bytes (``retrieveData(with:options:progress:)``) right now.
    public var dataCallersWaiting: Int { dataFlights.waiting }
    /// Background revalidations running now (see ``ImageOptions/CacheOptions/HTTPCaching/servesStaleWhileRevalidating``).
    public var backgroundRevalidationsInFlight: Int { backgroundRevalidations.withLock { $0.count } }

    /// Waits until no background revalidation is running (a short-lived process calls it before
    /// it exits, so the renewals it started land).
    public func waitForBackgroundRevalidations() async {
        while let running = backgroundRevalidations.withLock({ $0.values.first }) {
            await running.value
        }
    }

    // MARK: - retrieving

    /// Retrieves the image for `source` through caches, download and processing.
    /// - Parameters:
    ///   - source: a URL, a provider, or alternatives tried in order.
    ///   - options: the size, effects, cache rules and request settings (the `make` DSL's).
    ///   - progress: Body bytes received and expected, as they arrive, on the thread that read
    ///     them (HTTP: the client's event loop): keep it short.
    /// - Throws: ``ImageRetrieveError``, naming the stage that failed (loading, decoding,
    ///   processing, the cache, a provider; every source's error when alternatives were tried), or
    ///   ``ImageRetrieveError/cancelled`` when the calling task is cancelled.
    public func retrieveImage(
        with source: Source, options: ImageOptions? = nil,
        progress: (@Sendable (_ received: Int, _ expected: Int?) -> Void)? = nil
    ) async throws(ImageRetrieveError) -> RetrieveImageResult {
        let options = options ?? defaultOptions
        stats.withLock { $0.retrievals += 1 }
        let pid = options.processorIdentifier
        do {
            return try await retrieve(source, options, progress)
        } catch {
            guard let first = ImageRetrieveError.wrapping(error, processor: pid) else { throw .cancelled }
            var failures = [ImageRetrieveError.SourceFailure(source: source.description, error: first)]
            for alternative in options.alternativeSources {
                do {
                    var result = try await retrieve(alternative, options, progress)
                    result.originalSource = source
                    return result
                } catch {
                    guard let e = ImageRetrieveError.wrapping(error, processor: pid) else { throw .cancelled }
                    failures.append(.init(source: alternative.description, error: e))
                }
            }
            stats.withLock { $0.failures += 1 }
            throw failures.count == 1 ? first : ImageRetrieveError.allSourcesFailed(failures)
        }
    }

    private func retrieve(
        _ source: Source, _ options: ImageOptions, _ progress: (@Sendable (Int, Int?) -> Void)?
    ) async throws -> RetrieveImageResult {
        let key = cacheKey(for: source, options: options)
        let target = options.cache.target ?? cache
        // The fast path: a memory hit takes no lock beyond the cache's own.
        let policy = options.cache.policy
        if options.readPolicy.readsMemory,
            let image = target.memoryImage(
                forKey: key, processorIdentifier: options.processorIdentifier, policy: policy, countsMiss: false)
        {
            stats.withLock { $0.memoryHits += 1 }
            let data = options.keepsOriginalData ? await storedData(key, options, target) : nil
            return RetrieveImageResult(
                image: image, cacheType: .memory, source: source, originalSource: source, data: data, coalesced: false)
        }
        // Everything else runs once for concurrent identical retrievals: the disk lookups too,
        // and a caller arriving as a fetch finishes finds its result in memory.
        let (found, joined) = try await flights.value(
            for: FlightKey(key: key, options: options), priority: options.request.priority, progress: progress
        ) { context in
            try await self.lookUpOrFetch(source, key: key, options: options, target: target, report: context.report)
        }
        if joined { stats.withLock { $0.coalesced += 1 } }
        var data: [UInt8]? = nil
        if options.keepsOriginalData {
            data = found.data
            if data == nil, found.cacheType == .memory { data = await storedData(key, options, target) }
        }
        return RetrieveImageResult(
            image: found.image, cacheType: found.cacheType, source: source, originalSource: source, data: data,
            coalesced: joined, stored: found.stored, freshness: found.freshness)
    }

    /// The bytes on disk behind a memory hit: the original under the plain key, else the
    /// processed entry's own bytes; `nil` when neither is there or the read fails.
    private func storedData(_ key: String, _ options: ImageOptions, _ target: ImageCache) async -> [UInt8]? {
        let pid = options.processorIdentifier
        let policy = options.cache.policy
        if let original = try? await (options.cache.originalCache ?? target).diskData(forKey: key, policy: policy) {
            return original
        }
        guard !pid.isEmpty else { return nil }
        return try? await target.diskData(forKey: key, processorIdentifier: pid, policy: policy)
    }

    /// Memory again (a flight that just finished stored there), the disk (processed entry,
    /// then the original processed again), then the network.
    private func lookUpOrFetch(
        _ source: Source, key: String, options: ImageOptions, target: ImageCache,
        report: @escaping @Sendable (Int, Int?) -> Void
    ) async throws -> Fetched {
        let pid = options.processorIdentifier
        let policy = options.cache.policy
        var stamps: [DiskCache.FileStamp?]? = nil
        if options.readPolicy != .refresh {
            if options.readPolicy.readsMemory,
                let image = target.memoryImage(forKey: key, processorIdentifier: pid, policy: policy)
            {
                stats.withLock { $0.memoryHits += 1 }
                return Fetched(image: image, data: nil, cacheType: .memory)
            }
            if options.readPolicy.readsDisk { stamps = entryStamps(key, processor: pid, target: target) }
            // A processed entry the stat found absent is a miss without a trip to read it.
            let absent = !pid.isEmpty && stamps?.last.map { $0 == nil } == true
            if options.readPolicy.readsDisk,
                let found = try await lookUpDisk(
                    source, key: key, options: options, target: target, processedAbsent: absent, report: report)
            {
                return found
            }
        }
        if options.readPolicy == .cacheOnly { throw ImageRetrieveError.notCached(key: key) }
        return try await withDownloadLease(
            key: key, target: target, options: options,
            changed: { [stamps] in stamps != nil && self.entryStamps(key, processor: pid, target: target) != stamps },
            lookUp: { try await self.lookUpDisk(source, key: key, options: options, target: target, report: report) },
            download: {
                stats.withLock { $0.fetches += 1 }
                return try await fetch(source, key: key, options: options, target: target, report: report)
            })
    }

    /// The disk: the processed entry, then the original processed again.
    private func lookUpDisk(
        _ source: Source, key: String, options: ImageOptions, target: ImageCache, processedAbsent: Bool = false,
        report: @escaping @Sendable (Int, Int?) -> Void
    ) async throws -> Fetched? {
        let pid = options.processorIdentifier
        let allowingStale = options.cache.http.respectsHeaders || (options.readPolicy == .revalidate)
        if processedAbsent {
            target.counters.withLock { $0.diskMisses += 1 }
        } else if let hit = try await target.diskImage(
            forKey: key, processorIdentifier: pid, policy: options.cache.policy, allowingStale: allowingStale),
            let settled = try await settle(hit, source, key: key, options: options, target: target, report: report)
        {
            return settled
        }
        if !pid.isEmpty, let reprocessed = try await fromOriginal(source, key, options, target, report: report) {
            stats.withLock { $0.originalHits += 1 }
            return reprocessed
        }
        return nil
    }

    /// A disk hit as it may be used: as it is while fresh; after a revalidation when stale (or
    /// forced); `nil` when it cannot be revalidated (a miss).
    private func settle(
        _ hit: ImageCache.DiskHit, _ source: Source, key: String, options: ImageOptions, target: ImageCache,
        report: @escaping @Sendable (Int, Int?) -> Void
    ) async throws -> Fetched? {
        let pid = options.processorIdentifier
        guard variantMatches(hit.variant, options: options) else {
            stats.withLock { $0.variantMisses += 1 }
            return nil
        }
        guard revalidationNeeded(hit.freshness, isStale: hit.isStale, options: options) else {
            stats.withLock { $0.diskHits += 1 }
            return Fetched(image: hit.image, data: hit.data, cacheType: .disk)
        }
        let outcome = try await revalidate(
            source, key: key, options: options, target: target, validators: hit.metadata, freshness: hit.freshness,
            isStale: hit.isStale, renewing: [pid], report: report)
        switch outcome {
        case nil:
            return nil
        case .replaced(let fetched):
            return fetched
        case .servedStale:
            return Fetched(image: hit.image, data: hit.data, cacheType: .disk)
        case .confirmed(let renewed):
            // (A variant stays out of memory, which is keyed by URL alone.)
            if hit.variant == nil {
                let cacheKey = ImageCache.cacheKey(key, processorIdentifier: pid)
                target.promote(hit.image, forKey: cacheKey, until: renewed.freshUntil, policy: options.cache.policy)
            }
            stats.withLock { $0.diskHits += 1 }
            return Fetched(image: hit.image, data: hit.data, cacheType: .disk)
        }
    }
}
