import Magpie

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension ImageService {
    /// `Cache-Control` of an image answer: `public` (`private` for a source fetched with the
    /// client's cookies) for the server's TTL, or what `exp` leaves of it.
    ///
    /// With ``ServiceConfiguration/cacheControlPassthrough`` (imgproxy's
    /// `IMGPROXY_CACHE_CONTROL_PASSTHROUGH`) and no `exp`, the origin's own lifetime instead, from
    /// its `Cache-Control` or `Expires` as the cache keeps it (``RetrieveDataResult/freshness``,
    /// renewed by each `304`): `max-age` is what is left of it now, so an answer served from the
    /// cache an hour after the fetch says an hour less, as a CDN's remaining-lifetime mode does;
    /// `must-revalidate`, `immutable`, `stale-while-revalidate` and `stale-if-error` go with it,
    /// and `no-cache`, or a lifetime that has run out, is `no-cache` (imgproxy's answer for a
    /// zero TTL). The origin's `private` makes the answer `private` and its `no-store` is
    /// `no-store`, so a CDN keeps neither (imgproxy passes both on with the field). imgproxy,
    /// which keeps no cache, copies the origin's field as it came; a response that stated no
    /// lifetime gets the TTL in both.
    func cacheControl(_ plan: Plan, _ freshness: EntryFreshness) -> String {
        let passthrough = configuration.cacheControlPassthrough && plan.expires == nil
        if passthrough, freshness.noStore { return "no-store" }
        let scope = plan.personal || (passthrough && freshness.isPrivate) ? "private" : "public"
        guard passthrough, freshness.freshUntil.isFinite else { return "\(scope), max-age=\(plan.maxAge)" }
        let now = Date(timeIntervalSince1970: self.now()).timeIntervalSinceReferenceDate
        let left = (freshness.freshUntil - now).rounded()  // to the second: an origin's Date has no fraction
        guard left >= 1, !freshness.noCache else { return scope == "private" ? "private, no-cache" : "no-cache" }
        var value = "\(scope), max-age=\(Int(min(left, Double(Int32.max))))"
        if freshness.mustRevalidate { value += ", must-revalidate" }
        if freshness.immutable { value += ", immutable" }
        if freshness.staleWhileRevalidate > 0 { value += ", stale-while-revalidate=\(freshness.staleWhileRevalidate)" }
        if freshness.staleIfError > 0 { value += ", stale-if-error=\(freshness.staleIfError)" }
        return value
    }
}
