#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How long a disk entry is fresh by its origin's word, and what may be done with it once it is
/// stale (RFC 9111, read from the response it was made from; see ``HTTPCacheHeaders``).
///
/// An entry is fresh until ``freshUntil`` and kept until its expiry (the cache's own, extended
/// by reads as configured). Reads never extend the freshness: only a revalidation does. A stale
/// entry whose response had validators (ETag, Last-Modified) is revalidated before use; one
/// without them is a miss, and is never kept past its freshness.
public struct EntryFreshness: Sendable, Hashable {
    /// Seconds since the reference date; `.infinity` when the origin set no lifetime (then the
    /// entry is fresh for as long as the cache keeps it).
    public var freshUntil: Double
    /// The lifetime the origin gave, in seconds (what a `304` without its own lifetime renews).
    public var lifetime: UInt32
    /// `stale-while-revalidate`: seconds past ``freshUntil`` the entry may be served while one
    /// revalidation runs in the background.
    public var staleWhileRevalidate: UInt32
    /// `stale-if-error`: seconds past ``freshUntil`` the entry may be served when revalidating fails.
    public var staleIfError: UInt32
    /// `immutable`: never revalidated while fresh, even when revalidation is forced.
    public var immutable: Bool
    /// `must-revalidate`: once stale, served only after a successful revalidation.
    public var mustRevalidate: Bool
    /// `no-cache`: stale at once, and served only after a successful revalidation, every time.
    public var noCache: Bool
    /// `private`: for one user's cache, not a shared one (a service passes it on, see
    /// `IMGPROXY_CACHE_CONTROL_PASSTHROUGH`).
    public var isPrivate = false
    /// `no-store`: kept by no shared cache (the pipeline keeps it off the disk, so it is never
    /// read back from an entry; a service passes it on).
    public var noStore = false

    /// Whether a stale entry may never be served without a successful revalidation: not in the
    /// background (`stale-while-revalidate`), not when the origin fails (`stale-if-error`), not
    /// whatever the options allow. `must-revalidate` and `no-cache` say so.
    public var forbidsStaleUse: Bool { mustRevalidate || noCache }

    public init(
        freshUntil: Double = .infinity, lifetime: UInt32 = 0, staleWhileRevalidate: UInt32 = 0,
        staleIfError: UInt32 = 0, immutable: Bool = false, mustRevalidate: Bool = false, noCache: Bool = false
    ) {
        self.mustRevalidate = mustRevalidate
        self.noCache = noCache
        self.freshUntil = freshUntil
        self.lifetime = lifetime
        self.staleWhileRevalidate = staleWhileRevalidate
        self.staleIfError = staleIfError
        self.immutable = immutable
    }

    /// No lifetime from the origin: fresh while kept.
    public static let unlimited = EntryFreshness()

    /// The freshness a response gives from `now`: its lifetime (clamped at zero: `no-cache`,
    /// `max-age=0` and a past `Expires` are stale at once) and its stale allowances; `nil` when it
    /// sets no lifetime and no allowance.
    public init?(_ headers: HTTPCacheHeaders, receivedAt: Date, now: Date) {
        let lifetime = headers.noCache ? 0 : headers.freshnessLifetime(receivedAt: receivedAt)
        guard
            lifetime != nil || headers.staleWhileRevalidate != nil || headers.staleIfError != nil
                || headers.mustRevalidate || headers.noCache || headers.isPrivate || headers.noStore
        else {
            return nil
        }
        let seconds = lifetime.map { max(0, min($0, Double(Int32.max))) }
        self.init(
            freshUntil: seconds.map { now.timeIntervalSinceReferenceDate + $0 } ?? .infinity,
            lifetime: UInt32(seconds ?? 0), staleWhileRevalidate: UInt32(headers.staleWhileRevalidate ?? 0),
            staleIfError: UInt32(headers.staleIfError ?? 0), immutable: headers.immutable,
            mustRevalidate: headers.mustRevalidate, noCache: headers.noCache)
        isPrivate = headers.isPrivate
        noStore = headers.noStore
    }

    /// Whether the entry is fresh at `now` (seconds since the reference date).
    public func isFresh(at now: Double) -> Bool { freshUntil > now }

    /// This freshness renewed at `now` by a `304` that said `headers` (RFC 9111 §4.3.4): the
    /// 304's caching directives where it restates them (its lifetime, else the stored one started
    /// again), the stored ones where it does not.
    func renewed(by headers: HTTPCacheHeaders, receivedAt: Date, now: Date) -> EntryFreshness {
        let restartedUntil = freshUntil.isFinite ? now.timeIntervalSinceReferenceDate + Double(lifetime) : freshUntil
        guard headers.hasCacheControl || headers.expires != nil,
            var fresh = EntryFreshness(headers, receivedAt: receivedAt, now: now)
        else {
            var same = self
            same.freshUntil = restartedUntil
            return same
        }
        if headers.maxAge == nil && headers.expires == nil && !headers.noCache {
            fresh.freshUntil = restartedUntil
            fresh.lifetime = lifetime
        }
        return fresh
    }
}
