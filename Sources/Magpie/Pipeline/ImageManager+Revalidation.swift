#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Stale disk entries: a conditional request renews them (`304`) or replaces them (`200`), at
/// once or in the background, and an origin that is down may leave them served.
extension ImageManager {
    /// What became of a stale entry.
    enum Revalidation: Sendable {
        /// The origin confirmed it (`304`): its entries were renewed with this freshness.
        case confirmed(EntryFreshness)
        /// The origin sent a new version, which was processed and stored.
        case replaced(Fetched)
        /// Served as it is: a revalidation runs in the background, or the origin failed within
        /// what `stale-if-error` (or the options) allow.
        case servedStale
    }

    /// Whether a disk entry is used without asking the origin (``StoredEntryRule``): fresh, and
    /// revalidation not forced (or the entry `immutable`).
    func revalidationNeeded(_ freshness: EntryFreshness, isStale: Bool, options: ImageOptions) -> Bool {
        let entry = StoredEntryRule.Entry(freshness, isStale: isStale, staleFor: 0, canRevalidate: true)
        return StoredEntryRule.decide(entry, options: options) != .use
    }

    /// Settles an entry that needs revalidation (see ``revalidationNeeded(_:isStale:options:)``)
    /// as ``StoredEntryRule`` decides; `nil` when it is a miss (no validators, not a network
    /// source, only the cache allowed).
    /// - Parameter renewing: the processor identifiers whose entries under `key` a `304` renews.
    func revalidate(
        _ source: Source, key: String, options: ImageOptions, target: ImageCache, validators: ResponseValidators,
        freshness: EntryFreshness, isStale: Bool, renewing: [String], report: @escaping @Sendable (Int, Int?) -> Void
    ) async throws -> Revalidation? {
        var isNetwork = false
        if case .network = source { isNetwork = true }
        let entry = StoredEntryRule.Entry(
            freshness, isStale: isStale,
            staleFor: clock.now().timeIntervalSinceReferenceDate - freshness.freshUntil,
            canRevalidate: isNetwork && validators.canRevalidate)
        switch StoredEntryRule.decide(entry, options: options) {
        case .miss:
            return nil
        case .use:
            return .confirmed(freshness)
        case .serveStaleWhileRevalidating:
            stats.withLock { $0.staleServed += 1 }
            revalidateInBackground(
                source, key: key, options: options, target: target, validators: validators, freshness: freshness,
                renewing: renewing)
            return .servedStale
        case .revalidate:
            do {
                return try await revalidateNow(
                    source, key: key, options: options, target: target, validators: validators, freshness: freshness,
                    renewing: renewing, report: report)
            } catch let error as ImageDownloadError
                where StoredEntryRule.servesStale(after: error, entry, options: options)
            {
                logger.notice(
                    "origin failed: serving the stale image", metadata: ["key": "\(key)", "error": "\(error)"])
                stats.withLock { $0.staleServed += 1 }
                return .servedStale
            }
        }
    }

    /// One conditional request: a `304` renews the entries under `key` for `renewing` (and the
    /// original's, where it is kept); a `200` is processed and stored like any download.
    func revalidateNow(
        _ source: Source, key: String, options: ImageOptions, target: ImageCache, validators: ResponseValidators,
        freshness: EntryFreshness, renewing: [String], report: @escaping @Sendable (Int, Int?) -> Void
    ) async throws -> Revalidation {
        stats.withLock { $0.revalidations += 1 }
        let loaded = try await load(source, options: options, revalidating: validators, report: report)
        guard loaded.notModified else {
            let fetched = try await processAndStore(loaded, source: source, key: key, options: options, target: target)
            return .replaced(fetched)
        }
        return try await revalidated(
            loaded, key: key, options: options, target: target, validators: validators, freshness: freshness,
            renewing: renewing)
    }

    /// After a `304`: renews the entries under `key` for `renewing` (and the original's, where it
    /// is kept) with the freshness the 304 gives (else the stored one, started again).
    func revalidated(
        _ loaded: LoadedSource, key: String, options: ImageOptions, target: ImageCache, validators: ResponseValidators,
        freshness: EntryFreshness, renewing: [String]
    ) async throws -> Revalidation {
        stats.withLock { $0.notModified += 1 }
        let now = clock.now()
        var renewed = freshness
        if options.cache.http.respectsHeaders, let (headers, receivedAt) = loaded.caching {
            renewed = freshness.renewed(by: headers, receivedAt: receivedAt, now: now)
        } else if freshness.freshUntil.isFinite {
            renewed.freshUntil = now.timeIntervalSinceReferenceDate + Double(freshness.lifetime)
        }
        var policy = options.cache.policy
        policy.freshness = renewed
        // The entries asked about, and those other sizes of the URL this manager made lately: all
        // carry the validators that were confirmed (a renewal checks them).
        let pids = renewing.filter { !$0.isEmpty } + recentProcessors.withLock { $0 }
        let processed = Array(Set(pids)).map { Optional($0) }
        var count = await target.renew(
            forKey: key, processorIdentifiers: processed.isEmpty ? [nil] : processed, freshness: renewed,
            validators: validators, policy: policy)
        if !processed.isEmpty || options.cache.originalCache != nil {
            count += await (options.cache.originalCache ?? target).renew(
                forKey: key, processorIdentifiers: [nil], freshness: renewed, validators: validators, policy: policy)
        }
        stats.withLock { $0.entriesRenewed += count }
        return .confirmed(renewed)
    }

    /// Starts one background revalidation of `key`'s entry unless one is running.
    func revalidateInBackground(
        _ source: Source, key: String, options: ImageOptions, target: ImageCache, validators: ResponseValidators,
        freshness: EntryFreshness, renewing: [String]
    ) {
        let flight = CacheKeys.processed(key, processorIdentifier: options.processorIdentifier)
        // Made under the lock, so the task's own removal (which takes it) always follows.
        let started = backgroundRevalidations.withLock { running -> Bool in
            guard running[flight] == nil else { return false }
            running[flight] = Task(priority: .utility) { [self] in
                do {
                    _ = try await revalidateNow(
                        source, key: key, options: options, target: target, validators: validators,
                        freshness: freshness, renewing: renewing, report: { _, _ in })
                } catch {
                    logger.notice("background revalidation failed", metadata: ["key": "\(key)", "error": "\(error)"])
                }
                _ = backgroundRevalidations.withLock { $0.removeValue(forKey: flight) }
            }
            return true
        }
        if started { stats.withLock { $0.backgroundRevalidations += 1 } }
    }

    /// The policy for storing what was made from an entry with `freshness` (its processed image
    /// from an original): the same freshness, and no memory copy past it (none at all for a
    /// variant: memory is keyed by URL alone).
    func policy(_ options: ImageOptions, keeping freshness: EntryFreshness, variant: String?, target: ImageCache)
        -> CachePolicy
    {
        var policy = options.cache.policy
        policy.freshness = freshness
        if variant != nil { policy.memoryExpiration = .expired }
        if freshness.freshUntil.isFinite {
            policy.freshnessLimit = freshness.freshUntil - clock.now().timeIntervalSinceReferenceDate
        }
        return policy
    }
}

extension ImageDownloadError {
    /// Whether a stale image may stand in for this failure (`stale-if-error`: the origin did not
    /// answer, or answered 5xx); a 404 or a refused redirect says the image is gone.
    var allowsServingStale: Bool {
        switch self {
        case .connectionFailed, .timedOut, .truncatedBody: return true
        case .badStatus(let code, _): return code >= 500
        case .recentlyFailed(let reason, _): return reason.allowsServingStale
        default: return false
        }
    }
}
