/// Disk hits: the entry read off the cooperative pool, decoded under the decode limit, and
/// promoted to memory while fresh; stale entries for a revalidation.
extension ImageCache {
    /// A disk entry decoded.
    struct DiskHit: Sendable {
        var image: Image
        /// The bytes it was decoded from.
        var data: [UInt8]
        var freshness: EntryFreshness
        /// Past the origin's freshness: to be revalidated before use (not promoted to memory).
        var isStale: Bool
        /// The validators (a revalidation sends them), content type and variant kept with it.
        var metadata: DiskEntryMetadata
        /// The response's variant, when it had `Vary` (not promoted to memory: the caller checks
        /// that it matches the request).
        var variant: String? { metadata.variant }
    }

    /// The disk entry for `key` decoded (and promoted to memory unless stale), with the bytes it
    /// was decoded from; `nil` on a miss. An entry that does not decode is removed and is a miss.
    /// A stale entry (see ``EntryFreshness``) is a miss unless `allowingStale`.
    func diskImage(
        forKey key: String, processorIdentifier: String?, options: DecodingOptions = .default, policy: CachePolicy,
        allowingStale: Bool = false
    ) async throws -> DiskHit? {
        try await tracedRead { () async throws -> DiskHit? in
            let cacheKey = Self.cacheKey(key, processorIdentifier: processorIdentifier)
            let serializer = policy.serializer ?? self.serializer
            let diskExtending = policy.diskExtending
            let found = try await runOnIO { [diskStorage] in
                try diskStorage.entry(
                    forKey: cacheKey, extendingExpiration: diskExtending, allowingStale: allowingStale)
            }
            guard let found else {
                counters.withLock { $0.diskMisses += 1 }
                return nil
            }
            // Decoded under the same limit as the pipeline's decodes, waiting as they do for the budget.
            let payload = found.payload
            let read = try await DecodeMemoryBudget.retrying {
                try await decoder.run { try self.decode(payload, cacheKey, serializer, options) }
            }
            guard case .image(let image, let data) = read else {
                counters.withLock { $0.diskMisses += 1 }
                return nil
            }
            counters.withLock { $0.diskHits += 1 }
            if !found.isStale && found.variant == nil {
                // The memory copy never outlives the disk entry it came from, nor its freshness.
                promote(
                    image, forKey: cacheKey, until: min(found.expiresAt, found.freshness.freshUntil), policy: policy)
            }
            return DiskHit(
                image: image, data: data, freshness: found.freshness, isStale: found.isStale, metadata: found.metadata)
        }
    }

    /// Stores a disk hit in memory for no longer than `until` (seconds since the reference date).
    func promote(_ image: Image, forKey cacheKey: String, until: Double, policy: CachePolicy) {
        var promotion = policy
        let now = diskStorage.clock.now()
        promotion.freshnessLimit = until == .infinity ? nil : until - now.timeIntervalSinceReferenceDate
        memoryStorage.store(image, forKey: cacheKey, expiration: memoryExpiration(promotion))
    }

    /// The bytes stored on disk for `key` with their freshness, read off the cooperative pool;
    /// `nil` when absent (or stale, unless `allowingStale`).
    func diskEntry(
        forKey key: String, processorIdentifier: String? = nil, policy: CachePolicy, allowingStale: Bool
    ) async throws -> DiskCache.Hit? {
        let cacheKey = Self.cacheKey(key, processorIdentifier: processorIdentifier)
        let extending = policy.diskExtending
        return try await tracedRead {
            try await runOnIO { [diskStorage] in
                try diskStorage.entry(forKey: cacheKey, extendingExpiration: extending, allowingStale: allowingStale)
            }
        }
    }

    /// The validators and freshness kept with `key`'s disk entry (its header only).
    func diskEntryInfo(forKey key: String, processorIdentifier: String? = nil) async -> DiskEntryInfo? {
        let cacheKey = Self.cacheKey(key, processorIdentifier: processorIdentifier)
        return try? await runOnIO { [diskStorage] in diskStorage.entryInfo(forKey: cacheKey) }
    }

    /// Renews `key`'s disk entries for each processor identifier after a `304`: new freshness,
    /// expiry restarted (see ``DiskCache/renew(forKey:freshness:expiration:validators:)``).
    /// Returns how many entries were renewed; failures are logged, never thrown.
    func renew(
        forKey key: String, processorIdentifiers: [String?], freshness: EntryFreshness,
        validators: ResponseValidators, policy: CachePolicy
    ) async -> Int {
        let keys = processorIdentifiers.map { Self.cacheKey(key, processorIdentifier: $0) }
        let expiration = policy.diskExpiration
        let renewed = try? await runOnIO { [diskStorage, logger] in
            var count = 0
            for cacheKey in Set(keys) {
                do {
                    if try diskStorage.renew(
                        forKey: cacheKey, freshness: freshness, expiration: expiration, validators: validators)
                    {
                        count += 1
                    }
                } catch {
                    logger.warning(
                        "renewing a cache entry failed", metadata: ["key": "\(cacheKey)", "error": "\(error)"])
                }
            }
            return count
        }
        return renewed ?? 0
    }

    enum DiskRead: Sendable {
        case miss
        case image(Image, [UInt8])
    }

    /// Decodes a disk entry; one that does not decode is removed (a miss). A decode that found
    /// the decode memory budget in use is not the entry's fault: that error is thrown, for
    /// ``DecodeMemoryBudget/retrying(waiting:_:)`` to try again.
    func decode(
        _ data: [UInt8], _ cacheKey: String, _ serializer: any CacheSerializer, _ options: DecodingOptions
    ) throws -> DiskRead {
        do {
            return .image(try serializer.image(from: data, options: options), data)
        } catch  where DecodeMemoryBudget.isBudgetInUse(error) {
            throw error
        } catch {
            discardUndecodable(cacheKey, error)
            return .miss
        }
    }

}
