#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Rewrites URLs into cache keys: drops query items that change per request without changing
/// the image (signatures, tokens), so signed URLs of one object share a cache entry.
public struct CacheKeyFilter: Sendable, Hashable {
    /// Query item names removed (case-sensitive, as URLs are).
    public var droppedQueryItems: Set<String>
    /// Hosts (lower-case) whose images do not depend on the request's credentials: requests to
    /// them share cache entries whatever `Authorization`, `Cookie` or user info they carry. Empty
    /// by default: a request with credentials is cached apart, under a keyed digest of them.
    public var credentialIndependentHosts: Set<String>

    public init(droppingQueryItems names: Set<String> = [], credentialIndependentHosts hosts: Set<String> = []) {
        self.droppedQueryItems = names
        self.credentialIndependentHosts = Set(hosts.map { $0.lowercased() })
    }

    public static let none = CacheKeyFilter()

    /// The cache key for `url`: the URL without the dropped query items and without a fragment
    /// (which never reaches the server), the rest of the query kept in order.
    public func key(for url: URL, alsoDropping extra: Set<String> = []) -> String {
        let names = droppedQueryItems.union(extra)
        let text = url.absoluteString
        if names.isEmpty && !text.utf8.contains(UInt8(ascii: "#")) { return text }
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return text }
        parts.fragment = nil
        if !names.isEmpty, let items = parts.queryItems {
            let kept = items.filter { !names.contains($0.name) }
            parts.queryItems = kept.isEmpty ? nil : kept
        }
        return parts.url?.absoluteString ?? text
    }
}
