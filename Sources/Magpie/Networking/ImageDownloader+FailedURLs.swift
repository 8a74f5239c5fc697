#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The failed-URL memory: hard failures (404, 410, bodies that are not images) are answered
/// from memory for a while instead of asking the origin again.
extension ImageDownloader {
    // MARK: - failed-URL memory

    /// Remembers that `url` (as the downloader would request it with `headers`) failed with
    /// `error`, for the configured TTL. The pipeline calls this for bodies that do not decode.
    public func rememberFailure(of url: URL, headers: [HTTPHeaderField] = [], error: ImageDownloadError) {
        guard let ttl = config.failedURLTTL, let request = try? baseRequest(url, DownloadOptions(headers: headers))
        else { return }
        remember(coalescingKey(request), error, ttl)
    }

    /// Forgets every remembered failure.
    public func forgetFailures() { failed.withLock { $0.removeAll() } }

    func remember(_ key: String, _ error: ImageDownloadError, _ ttl: Duration) {
        let until = clock.now().timeIntervalSinceReferenceDate + Double(ttl.nanoseconds) / 1e9
        let sweepAt = failedSweepAt.withLock { $0 }
        let survivors = failed.withLock { f -> Int? in
            f[key] = (until, error)
            // Drop expired ones now and then (amortised), so the memory stays small; a flood of
            // distinct failing URLs within the TTL is capped by forgetting the soonest to expire.
            guard f.count > sweepAt else { return nil }
            let now = clock.now().timeIntervalSinceReferenceDate
            f = f.filter { $0.value.until > now }
            if f.count > 65536 {
                let keep = f.sorted { $0.value.until > $1.value.until }.prefix(32768)
                f = Dictionary(uniqueKeysWithValues: keep.map { ($0.key, $0.value) })
            }
            return f.count
        }
        if let survivors { failedSweepAt.withLock { $0 = max(4096, 2 * survivors) } }
    }
}
