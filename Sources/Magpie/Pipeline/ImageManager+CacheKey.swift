#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The one place cache keys are made.
extension ImageManager {
    /// The cache key `source` is stored under with `options` (before the processor suffix).
    ///
    /// A network request that carries credentials (`Authorization`, `Proxy-Authorization`,
    /// `Cookie`, a header the downloader's config marks sensitive, or `user:password@` in the URL)
    /// is keyed apart: `<key>#credentials=<HMAC-SHA-256 of the credentials>`, under a secret kept in
    /// the cache folder. Different credentials never share an entry, and neither the key nor the
    /// disk holds the credentials (user info is removed from the URL). Hosts in
    /// ``CacheKeyFilter/credentialIndependentHosts`` are keyed by the URL alone. Credentials a
    /// request modifier adds are not seen here: pass them as headers, or set the key yourself.
    public func cacheKey(for source: Source, options: ImageOptions = ImageOptions()) -> String {
        switch source {
        case .network(let url, let key):
            return CacheKeys.network(
                url: url, explicitKey: options.cache.key ?? key, filter: cacheKeyFilter,
                alsoDropping: options.cache.ignoredQueryItems, credentials: credentials(url, options: options),
                secret: { cache.credentialSecret })
        case .provider(let p): return options.cache.key ?? p.cacheKey
        }
    }

    /// The request's credentials as `name:value` lines (headers the downloader would send and
    /// the URL's user info); empty when it carries none.
    private func credentials(_ url: URL, options: ImageOptions) -> [String] {
        let sensitive = downloader.config.sensitiveHeaders
        func isCredential(_ field: HTTPHeaderField) -> Bool {
            let name = field.name.lowercased()
            return WebURL.credentialHeaders.contains(name) || sensitive.contains(name)
        }
        let hasUserInfo = WebURL.hasUserInfo(url.absoluteString)
        let defaults = downloader.config.defaultHeaders
        guard
            hasUserInfo || options.request.headers.contains(where: isCredential)
                || defaults.contains(where: isCredential)
        else { return [] }
        var headers = defaults
        for field in options.request.headers { headers.set(field.name, field.value) }
        var lines = headers.filter(isCredential).map { $0.name.lowercased() + ":" + $0.value }
        if hasUserInfo {
            lines.append(
                "userinfo:" + (url.user(percentEncoded: true) ?? "") + ":" + (url.password(percentEncoded: true) ?? ""))
        }
        return lines
    }

    /// The variant this request is of for a response varying on `names` (see
    /// ``CacheKeys/variant(varying:requestHeaders:)``): the downloader's default headers with the
    /// options' on top, as they are sent.
    func variant(varying names: [String], options: ImageOptions) -> String? {
        var headers = (options.request.downloader ?? downloader).config.defaultHeaders
        for field in options.request.headers { headers.set(field.name, field.value) }
        return CacheKeys.variant(varying: names, requestHeaders: headers)
    }

    /// Whether an entry stored with `stored` as its variant may answer this request.
    func variantMatches(_ stored: String?, options: ImageOptions) -> Bool {
        guard let stored else { return true }
        return variant(varying: CacheKeys.variedNames(stored), options: options) == stored
    }
}
