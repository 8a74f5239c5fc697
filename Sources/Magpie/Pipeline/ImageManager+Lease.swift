/// Single flight across processes: a download runs holding the key's lease in the disk cache's
/// folder (``DiskCache/DownloadLease``), so processes sharing the folder (several `magpie
/// prefetch` runs, server workers) download a key once; the others wait and read the entry.
extension ImageManager {
    /// Runs `download` holding the download lease of `key` in `target`'s folder. While another
    /// process holds it, waits (checking every 5 ms, backing off to 100 ms) up to the folder's
    /// ``DiskCache/Config/downloadLeaseTimeout``; once it holds the lease after a wait, `lookUp`
    /// reads what the other process stored, and only when it finds nothing (the download failed
    /// or was not storable) does this process download. A holder past the timeout is not waited
    /// for further. Flights of one process share its lease (the downloader coalesces them). Left
    /// open: a holder that stores and lets go in the microseconds between another process's
    /// own disk lookup and its attempt; that process then downloads again.
    func withDownloadLease<T: Sendable>(
        key: String, target: ImageCache, options: ImageOptions,
        lookUp: () async throws -> T?, download: () async throws -> T
    ) async throws -> T {
        let disk = target.diskStorage
        guard let timeout = disk.config.downloadLeaseTimeout, options.cache.policy.writesToDisk else {
            return try await download()
        }
        let deadline = ContinuousClock.now + timeout
        var waited = false
        var pause = Duration.milliseconds(5)
        while true {
            switch disk.tryDownloadLease(forKey: key) {
            case .acquired(let lease):
                defer { lease.release() }
                if waited, options.readPolicy.readsDisk, let found = try await lookUp() {
                    stats.withLock { $0.sharedAcrossProcesses += 1 }
                    return found
                }
                return try await download()
            case .unavailable:
                return try await download()
            case .busy:
                guard ContinuousClock.now < deadline else { return try await download() }
                waited = true
                try await Task.sleep(for: pause)
                pause = min(pause * 2, .milliseconds(100))
            }
        }
    }
}
