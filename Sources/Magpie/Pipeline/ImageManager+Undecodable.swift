#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Sources whose bytes did not decode, remembered by the pipeline (which decoded them), not by
/// the downloader (which only moved the bytes): asking again within the downloader's
/// `failedURLTTL` answers at once with the same failure, as a 404 does.
extension ImageManager {
    /// The remembered failure for `key` (a network source's cache key), unless it expired.
    func undecodableFailure(forKey key: String, options: ImageOptions) -> ImageDownloadError? {
        guard !options.request.ignoresFailedURLMemory else { return nil }
        let now = clock.now().timeIntervalSinceReferenceDate
        guard let remembered = undecodable.withLock({ $0[key] }), remembered.until > now else { return nil }
        return .recentlyFailed(reason: .undecodable(remembered.why), until: remembered.until)
    }

    /// Remembers that the bytes fetched for `key` did not decode, for the TTL the options'
    /// downloader gives failed URLs (none: not remembered). At most 65,536 sources are kept;
    /// expired ones are dropped as the memory grows.
    func rememberUndecodable(forKey key: String, why: String, options: ImageOptions) {
        guard let ttl = (options.request.downloader ?? downloader).config.failedURLTTL else { return }
        let now = clock.now().timeIntervalSinceReferenceDate
        let until = now + Double(ttl.nanoseconds) / 1e9
        undecodable.withLock { memory in
            memory[key] = (until, why)
            guard memory.count > 4096 else { return }
            memory = memory.filter { $0.value.until > now }
            if memory.count > 65536 {
                let keep = memory.sorted { $0.value.until > $1.value.until }.prefix(32768)
                memory = Dictionary(uniqueKeysWithValues: keep.map { ($0.key, $0.value) })
            }
        }
    }
}
