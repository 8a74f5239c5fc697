import Tracing

/// Retrieving encoded bytes (Nuke's data tasks): the original's, or a processed variant's as the
/// cache keeps it, served from disk without a decode when they are there and fresh (or renewed by
/// a `304`). The disk-only prefetcher and an image service use it.
extension ImageManager {
    struct FetchedData: Sendable {
        var data: [UInt8]
        var cacheType: CacheType
        var revalidated: Bool
        /// The origin's `Last-Modified` for these bytes, when it sent one.
        var lastModified: String? = nil
        /// The origin's freshness for these bytes (see ``RetrieveDataResult/freshness``).
        var freshness: EntryFreshness = .unlimited
    }

    /// The bytes for `source`:
    /// - no processor: the original's bytes: the disk entry under the plain key as the origin's
    ///   caching headers allow (`StoredEntryRule`: used, revalidated, or served stale), else
    ///   downloaded and stored as they came, never decoded;
    /// - a processor: the processed entry's bytes on disk, as above, else the image retrieved
    ///   through ``retrieveImage(with:options:progress:)`` (sharing its flights) and the bytes
    ///   encoded for its entry in the job that made it (returned as written, not read back; still
    ///   returned when the write fails), or, when the cache keeps none (memory only, `no-store`),
    ///   the image encoded by the cache's serializer.
    ///
    /// Concurrent calls that would give the same bytes share one retrieval. Alternative sources
    /// are not tried.
    /// - Throws: ``ImageRetrieveError`` (`notCached` when only the cache may answer and it holds
    ///   nothing usable; ``ImageRetrieveError/cancelled`` when the calling task is cancelled).
    public func retrieveData(
        with source: Source, options: ImageOptions? = nil,
        progress: (@Sendable (_ received: Int, _ expected: Int?) -> Void)? = nil
    ) async throws(ImageRetrieveError) -> RetrieveDataResult {
        try await retrieveData(with: source, options: options, progress: progress, prefetching: false)
    }

    /// As the public one. `prefetching` serves a prefetcher, which nobody waits on and whose job
    /// is the disk entry: a stale entry that could be served while revalidating in the background
    /// is revalidated now, and a disk write that fails fails the retrieval. Otherwise a failed
    /// write is logged and the bytes are returned, as the pipeline's stores do.
    func retrieveData(
        with source: Source, options: ImageOptions?, progress: (@Sendable (Int, Int?) -> Void)?,
        prefetching: Bool
    ) async throws(ImageRetrieveError) -> RetrieveDataResult {
        var options = options ?? defaultOptions
        options.cache.waitForCache = true  // the bytes returned are those written to disk
        let key = cacheKey(for: source, options: options)
        let target = options.cache.target ?? cache
        do {
            let flight = FlightKey(key: Self.dataFlightKey(key, prefetching: prefetching), options: options)
            let (found, joined) = try await dataFlights.value(
                for: flight, priority: options.request.priority, progress: progress
            ) { [options] context in
                try await self.lookUpOrLoadData(
                    source, key: key, options: options, target: target, prefetching: prefetching,
                    report: context.report)
            }
            if joined { stats.withLock { $0.coalesced += 1 } }
            let format = found.data.withUnsafeBytes { ImageFormat(sniffing: $0) }
            return RetrieveDataResult(
                data: found.data, format: format, cacheType: found.cacheType, revalidated: found.revalidated,
                source: source, coalesced: joined, lastModified: found.lastModified, freshness: found.freshness)
        } catch {
            guard let failure = ImageRetrieveError.wrapping(error, processor: options.processorIdentifier) else {
                throw .cancelled
            }
            stats.withLock { $0.failures += 1 }
            throw failure
        }
    }

    private func lookUpOrLoadData(
        _ source: Source, key: String, options: ImageOptions, target: ImageCache, prefetching: Bool,
        report: @escaping @Sendable (Int, Int?) -> Void
    ) async throws -> FetchedData {
        let pid = options.processorIdentifier
        let stamps = options.readPolicy.readsDisk && pid.isEmpty ? entryStamps(key, processor: "", target: target) : nil
        // A processed entry a stat finds absent is a miss without a trip to the I/O executor.
        let absent = !pid.isEmpty && !processedEntryExists(key, processor: pid, target: target)
        if options.readPolicy.readsDisk, !absent,
            let stored = try await storedData(
                source, key: key, options: options, target: target, prefetching: prefetching, report: report)
        {
            return stored
        }
        if options.readPolicy == .cacheOnly { throw ImageRetrieveError.notCached(key: key) }
        guard !pid.isEmpty else {
            return try await withDownloadLease(
                key: key, target: target, options: options,
                changed: { stamps != nil && self.entryStamps(key, processor: "", target: target) != stamps },
                lookUp: {
                    try await self.storedData(
                        source, key: key, options: options, target: target, prefetching: prefetching, report: report)
                },
                download: {
                    try await self.downloadData(
                        source, key: key, options: options, target: target, strict: prefetching, report: report)
                })
        }
        let retrieved = try await retrieveImage(with: source, options: options, progress: report)
        if let stored = retrieved.stored {  // encoded and stored now: no need to read them back
            return FetchedData(
                data: stored.bytes, cacheType: .none, revalidated: false, lastModified: stored.lastModified,
                freshness: stored.freshness)
        }
        let image = retrieved.image
        if let entry = try? await target.diskEntry(
            forKey: key, processorIdentifier: pid, policy: options.cache.policy, allowingStale: true)
        {
            return FetchedData(
                data: entry.payload, cacheType: .none, revalidated: false, lastModified: entry.metadata.lastModified,
                freshness: entry.freshness)
        }
        let serializer = options.cache.serializer ?? target.serializer
        let encoded = try await withSpan("magpie.encode") { _ in
            try await processing.run { try serializer.data(for: image, original: nil, isProcessed: true) }
        }
        // Not stored (`no-store`, a memory-only policy): the freshness the retrieval found.
        return FetchedData(
            data: encoded, cacheType: .none, revalidated: false, freshness: retrieved.freshness ?? .unlimited)
    }

    /// The entry's bytes under `key` (and the options' processor) as ``StoredEntryRule`` lets
    /// them be used; `nil` when there is none to use.
    private func storedData(
        _ source: Source, key: String, options: ImageOptions, target: ImageCache, prefetching: Bool,
        report: @escaping @Sendable (Int, Int?) -> Void
    ) async throws -> FetchedData? {
        let pid = options.processorIdentifier
        let allowingStale = options.cache.http.respectsHeaders || (options.readPolicy == .revalidate)
        guard
            let entry = try await target.diskEntry(
                forKey: key, processorIdentifier: pid.isEmpty ? nil : pid, policy: options.cache.policy,
                allowingStale: allowingStale)
        else { return nil }
        guard variantMatches(entry.variant, options: options) else {
            stats.withLock { $0.variantMisses += 1 }
            return nil
        }
        var isNetwork = false
        if case .network = source { isNetwork = true }
        let now = clock.now().timeIntervalSinceReferenceDate
        let rule = StoredEntryRule.Entry(
            entry.freshness, isStale: entry.isStale, staleFor: now - entry.freshness.freshUntil,
            canRevalidate: isNetwork && entry.metadata.canRevalidate)
        let stored = FetchedData(
            data: entry.payload, cacheType: .disk, revalidated: false, lastModified: entry.metadata.lastModified,
            freshness: entry.freshness)
        var decision = StoredEntryRule.decide(rule, options: options)
        if decision == .serveStaleWhileRevalidating && prefetching { decision = .revalidate }
        switch decision {
        case .miss:
            return nil
        case .use:
            stats.withLock { $0.diskHits += 1 }
            return stored
        case .serveStaleWhileRevalidating where pid.isEmpty:
            stats.withLock { $0.staleServed += 1 }
            revalidateDataInBackground(source, key: key, options: options, target: target, entry: entry)
            return stored
        case .serveStaleWhileRevalidating:
            // A processed entry is renewed with the original, as retrievals of images renew it.
            stats.withLock { $0.staleServed += 1 }
            revalidateInBackground(
                source, key: key, options: options, target: target, validators: entry.metadata,
                freshness: entry.freshness, renewing: [pid])
            return stored
        case .revalidate:
            do {
                if pid.isEmpty {
                    return try await revalidateData(
                        source, key: key, options: options, target: target, entry: entry, strict: prefetching,
                        report: report)
                }
                let outcome = try await revalidateNow(
                    source, key: key, options: options, target: target, validators: entry.metadata,
                    freshness: entry.freshness, renewing: [pid], report: report)
                guard case .confirmed(let renewed) = outcome else { return nil }  // replaced: read what was stored
                return FetchedData(
                    data: entry.payload, cacheType: .disk, revalidated: true, lastModified: entry.metadata.lastModified,
                    freshness: renewed)
            } catch let error as ImageDownloadError
                where StoredEntryRule.servesStale(after: error, rule, options: options)
            {
                logger.notice(
                    "origin failed: serving the stale bytes", metadata: ["key": "\(key)", "error": "\(error)"])
                stats.withLock { $0.staleServed += 1 }
                return stored
            }
        }
    }

    /// One conditional request for an original's entry: a `304` renews it (and the sizes made of
    /// it); a `200` is stored as it came and returned, not decoded.
    private func revalidateData(
        _ source: Source, key: String, options: ImageOptions, target: ImageCache, entry: DiskCache.Hit,
        strict: Bool = false, report: @escaping @Sendable (Int, Int?) -> Void
    ) async throws -> FetchedData {
        stats.withLock { $0.revalidations += 1 }
        let loaded = try await load(source, options: options, revalidating: entry.metadata, report: report)
        guard loaded.notModified else {
            return try await storeData(loaded, key: key, options: options, target: target, strict: strict)
        }
        let outcome = try await revalidated(
            loaded, key: key, options: options, target: target, validators: entry.metadata,
            freshness: entry.freshness, renewing: [""])
        var renewed = entry.freshness
        if case .confirmed(let f) = outcome { renewed = f }
        return FetchedData(
            data: entry.payload, cacheType: .disk, revalidated: true, lastModified: entry.metadata.lastModified,
            freshness: renewed)
    }

    /// Starts one background revalidation of an original's entry unless one is running for it
    /// (``waitForBackgroundRevalidations()`` waits for it too).
    private func revalidateDataInBackground(
        _ source: Source, key: String, options: ImageOptions, target: ImageCache, entry: DiskCache.Hit
    ) {
        let started = backgroundRevalidations.withLock { running -> Bool in
            guard running[key] == nil else { return false }
            running[key] = Task(priority: .utility) { [self] in
                do {
                    _ = try await revalidateData(
                        source, key: key, options: options, target: target, entry: entry, report: { _, _ in })
                } catch {
                    logger.notice("background revalidation failed", metadata: ["key": "\(key)", "error": "\(error)"])
                }
                _ = backgroundRevalidations.withLock { $0.removeValue(forKey: key) }
            }
            return true
        }
        if started { stats.withLock { $0.backgroundRevalidations += 1 } }
    }

    /// Downloads the original and stores it as it came.
    private func downloadData(
        _ source: Source, key: String, options: ImageOptions, target: ImageCache, strict: Bool,
        report: @escaping @Sendable (Int, Int?) -> Void
    ) async throws -> FetchedData {
        stats.withLock { $0.fetches += 1 }
        let loaded = try await load(source, options: options, report: report)
        return try await storeData(loaded, key: key, options: options, target: target, strict: strict)
    }

    /// Stores downloaded bytes under the policy their response allows (`no-store` and the like
    /// are not written) and returns them. A failed write (a full disk, an entry over the cache's
    /// size cap, a read-only folder) is logged and the bytes returned, as the pipeline's stores
    /// do; `strict` (a prefetch, whose job is the entry) throws it instead.
    private func storeData(
        _ loaded: LoadedSource, key: String, options: ImageOptions, target: ImageCache, strict: Bool
    ) async throws -> FetchedData {
        let policy = cachePolicy(options, key: key, loaded: loaded, target: target)
        if policy.writesToDisk {
            do {
                try await target.storeToDisk(
                    loaded.data, forKey: key, metadata: metadata(loaded, options: options), policy: policy)
            } catch  where !strict && !(error is CancellationError) {
                logger.warning("caching failed", metadata: ["key": "\(key)", "error": "\(error)"])
            }
        }
        return FetchedData(
            data: loaded.data, cacheType: .none, revalidated: false, lastModified: loaded.validators.lastModified,
            freshness: policy.freshness)
    }
}
