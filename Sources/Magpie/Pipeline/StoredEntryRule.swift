/// The one rule for a disk entry a retrieval found (RFC 9111 §4, as the options bend it): use it
/// as it is, revalidate it first, serve it stale while one background revalidation runs, or treat
/// it as a miss; and, when a revalidation failed, whether the stale entry may stand in.
///
/// Pure: no clock, no I/O. Processed hits, originals and the disk-only prefetcher all ask it, as
/// every DSL path asks ``OptionsCompiler``.
enum StoredEntryRule {
    /// What to do with the entry.
    enum Decision: Sendable, Equatable {
        /// Use it without asking the origin: fresh (and revalidation not forced, or an `immutable`
        /// one), or fresh with nothing to revalidate with, or fresh when only the cache may answer.
        case use
        /// Ask the origin with a conditional request and wait for the answer.
        case revalidate
        /// Serve it at once and revalidate in the background (`stale-while-revalidate`, or the
        /// options' `servesStaleWhileRevalidating`).
        case serveStaleWhileRevalidating
        /// Not usable: stale with no validators, or stale when only the cache may answer.
        case miss
    }

    /// An entry as the rule sees it.
    struct Entry: Sendable, Equatable {
        var freshness: EntryFreshness
        /// Whether its freshness had passed when it was read.
        var isStale: Bool
        /// Seconds past its freshness at the read (negative while fresh).
        var staleFor: Double
        /// Whether a conditional request can be made: validators kept, and a network source.
        var canRevalidate: Bool

        init(_ freshness: EntryFreshness, isStale: Bool, staleFor: Double, canRevalidate: Bool) {
            self.freshness = freshness
            self.isStale = isStale
            self.staleFor = staleFor
            self.canRevalidate = canRevalidate
        }
    }

    static func decide(_ entry: Entry, options: ImageOptions) -> Decision {
        let forced = (options.readPolicy == .revalidate) && !entry.freshness.immutable
        if !entry.isStale && (!forced || !entry.canRevalidate || (options.readPolicy == .cacheOnly)) { return .use }
        guard entry.canRevalidate, options.readPolicy != .cacheOnly else { return .miss }
        if entry.isStale, !entry.freshness.forbidsStaleUse, options.readPolicy != .revalidate,
            options.cache.http.servesStaleWhileRevalidating
                || entry.staleFor < Double(entry.freshness.staleWhileRevalidate)
        {
            return .serveStaleWhileRevalidating
        }
        return .revalidate
    }

    /// Whether the entry may be served after its revalidation failed with `error`: the failure is
    /// one a stale image may stand in for (no answer, a timeout, a 5xx; not a 404), the entry
    /// allows stale use (not `must-revalidate`, not `no-cache`), and `stale-if-error` or the
    /// options' `servesStaleOnError` allow it.
    static func servesStale(after error: ImageDownloadError, _ entry: Entry, options: ImageOptions) -> Bool {
        guard error.allowsServingStale, !(entry.isStale && entry.freshness.forbidsStaleUse) else { return false }
        return options.cache.http.servesStaleOnError
            || (entry.isStale && entry.staleFor < Double(entry.freshness.staleIfError))
    }
}
