extension ImageOptions: CustomDebugStringConvertible {
    /// The settings that differ from the defaults, and the cache key they give
    /// (`<source key>@<processor identifier>`).
    public var debugDescription: String {
        var parts: [String] = []
        let key = ImageCache.cacheKey(cache.key ?? "<source key>", processorIdentifier: processorIdentifier)
        parts.append("cache key: \(key)")
        if !cache.ignoredQueryItems.isEmpty { parts.append("ignoring query: \(cache.ignoredQueryItems.sorted())") }
        if readPolicy != .cacheThenNetwork { parts.append("read: \(readPolicy)") }
        if cache.memoryOnly { parts.append("memory only") }
        if cache.waitForCache { parts.append("waitForCache") }
        if cache.storesOriginal { parts.append("stores original") }
        for (name, layer) in [("memory", cache.memory), ("disk", cache.disk)] {
            if let e = layer.expiration { parts.append("\(name) expires: \(e)") }
            if layer.extendsOnAccess != .cacheTime { parts.append("\(name) extends: \(layer.extendsOnAccess)") }
        }
        let http = cache.http
        if !http.respectsHeaders { parts.append("ignoring HTTP caching headers") }
        if http.servesStaleWhileRevalidating { parts.append("stale while revalidating") }
        if http.servesStaleOnError { parts.append("stale on error") }
        if http.usesHeuristicFreshness { parts.append("heuristic freshness") }
        if let t = request.timeout { parts.append("timeout: \(t)") }
        if !request.headers.isEmpty { parts.append("headers: \(request.headers.map(\.name))") }
        if let r = retry { parts.append("retry: \(r.maxRetries) × \(r.backoff)") }
        if request.modifier != nil { parts.append("request modifier") }
        if request.redirectHandler != nil { parts.append("redirect handler") }
        if let p = request.priority { parts.append("priority: \(p.rawValue)") }
        if !alternativeSources.isEmpty { parts.append("alternatives: \(alternativeSources.count)") }
        return "ImageOptions(" + parts.joined(separator: ", ") + ")"
    }
}
