/// Single flight across processes: a download runs holding the key's lease in the disk cache's
/// folder (``DiskCache/DownloadLease``), so processes sharing the folder (several `magpie
/// prefetch` runs, server workers) download a key once; the others wait and read the entry.
extension ImageManager {
    /// Runs `download` holding the download lease of `key` in `target`'s folder. While another
    /// process holds it, waits (checking every 5 ms, backing off to 100 ms) up to the folder's
    /// ``DiskCache/Config/downloadLeaseTimeout``; once it holds the lease after a wait, or when
    /// `changed` says an entry file changed since this process's own lookup, `lookUp` reads
    /// what the other process stored, and only when it finds nothing (the download failed or
    /// was not storable) does this process download. A holder past the timeout is not waited
    /// for further. Flights of one process share its lease (the downloader coalesces them).
    func withDownloadLease<T: Sendable>(
        key: String, target: ImageCache, options: ImageOptions,
        changed: () -> Bool, lookUp: () async throws -> T?, download: () async throws -> T
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
                // Without a wait, a holder may still have stored and let go while this process
                // looked: `changed` (a stat against the one taken before that lookup) says so.
                if options.readPolicy.readsDisk, waited || changed(), let found = try await lookUp() {
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

extension ImageManager {
    /// The stamps of `key`'s entry files (the original, and the processed entry when there is a
    /// processor), taken before a disk lookup so that a download can tell whether another
    /// process wrote them meanwhile; `nil` when leases are off.
    func entryStamps(_ key: String, processor pid: String, target: ImageCache) -> [DiskCache.FileStamp?]? {
        let disk = target.diskStorage
        guard disk.config.downloadLeaseTimeout != nil, !disk.isReadOnly else { return nil }
        var stamps = [disk.fileStamp(forKey: key)]
        if !pid.isEmpty { stamps.append(disk.fileStamp(forKey: ImageCache.cacheKey(key, processorIdentifier: pid))) }
        return stamps
    }

    /// Whether `key`'s entry for processor `pid` is a file on disk now (a `stat`, as the stamps
    /// are taken: cheaper than a read that would find nothing).
    func processedEntryExists(_ key: String, processor pid: String, target: ImageCache) -> Bool {
        target.diskStorage.fileStamp(forKey: ImageCache.cacheKey(key, processorIdentifier: pid)) != nil
    }
}
