#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Removing entries: one, all, expired, least recently accessed; each removal checks under the
/// entry's lock that the index still holds the generation it chose, so a newer write survives.
extension DiskCache {

    /// Removes the entry for `key`, if any.
    public func remove(forKey key: String) throws(DiskCacheError) {
        let id = try checkedID(key)
        let unhashedKey = config.usesHashedFileName ? nil : key
        let failure = fileLock(id).withLock { _ -> Int32 in
            let size = state.withLock { $0.index[id]?.size ?? 0 }
            var failure: Int32 = 0
            counted {
                failure = withPath(id, key: unhashedKey) { path -> Int32 in
                    if unlink(path) == 0 { return 0 }
                    return errno != ENOENT ? errno : ENOENT
                }
                return failure == 0 ? -size : 0
            }
            if failure == ENOENT { failure = 0 }
            if failure == 0 { forget(id) }
            return failure
        }
        if failure != 0 { throw .writeFailed(path: path(id, key: unhashedKey), errno: failure) }
    }

    /// Removes every entry: the cache's own files (entries and temporary files) are deleted one
    /// by one, each under its entry lock, relative to a descriptor of the folder opened without
    /// following links. The marker, links, folders and foreign files stay.
    public func removeAll() throws(DiskCacheError) {
        if isReadOnly { throw .readOnly(path: directory) }
        let indexed = state.withLock { s in s.index.map { ($0.key, s.keys[$0.key], $0.value.generation) } }
        _ = removeFiles(indexed, countingShared: false)
        Self.removeOwnFiles(in: directory, config: config)
        state.withLock { s in
            s.index.removeAll()
            s.keys.removeAll()
            s.totalSize = 0
        }
        // Other processes may have written meanwhile: the folder's own total, not zero.
        shared?.update { $0 = Self.scan(directory, config: config, maxEntrySize: config.entryCap).0.totalSize }
    }

    /// Removes entries expired at `referenceDate`; returns their file names.
    @discardableResult
    public func removeExpiredValues(referenceDate: Date? = nil) -> [String] {
        let now = (referenceDate ?? clock.now()).timeIntervalSinceReferenceDate
        let expired = state.withLock { s in
            s.index.filter { $0.value.expiresAt <= now }.map { ($0.key, s.keys[$0.key], $0.value.generation) }
        }
        return removeFiles(expired)
    }

    /// When the directory is over its size limit, removes the least recently accessed entries
    /// down to half the limit; returns their file names.
    @discardableResult
    public func removeSizeExceededValues() -> [String] {
        guard config.sizeLimit > 0 else { return [] }
        let victims =
            shared != nil
            ? trimAcrossProcesses(downTo: config.sizeLimit / 2, over: config.sizeLimit)
            : removeLeastRecentlyAccessed(over: config.sizeLimit, downTo: config.sizeLimit / 2)
        return victims
    }

    /// Waits until background trims and deletions queued so far have finished.
    public func waitForBackgroundWork() {
        background.wait()
    }

    /// Evicts least recently accessed entries (never `spared`) until the total is at most `limit`.
    func evictOldest(downTo limit: Int, sparing spared: EntryID) {
        removeLeastRecentlyAccessed(over: limit, downTo: limit, sparing: spared)
    }

    /// When the total exceeds `threshold`, removes least recently accessed entries (never
    /// `spared`) until it is at most `target`; returns their file names.
    @discardableResult
    func removeLeastRecentlyAccessed(over threshold: Int, downTo target: Int, sparing spared: EntryID? = nil)
        -> [String]
    {
        let victims = state.withLock { s -> [(EntryID, String?, UInt64)] in
            guard s.totalSize > threshold else { return [] }
            var total = s.totalSize
            var out: [(EntryID, String?, UInt64)] = []
            for (id, entry) in s.index.sorted(by: { $0.value.lastAccess < $1.value.lastAccess }) where id != spared {
                if total <= target { break }
                out.append((id, s.keys[id], entry.generation))
                total -= entry.size
            }
            return out
        }
        return removeFiles(victims)
    }

    /// Deletes the files of `entries` chosen at the generations given (relative to one open
    /// descriptor of the directory, so the kernel does not walk the whole path for each) and
    /// drops them from the index; returns their file names. An entry written again since it was
    /// chosen is left alone.
    func removeFiles(_ entries: [(EntryID, String?, UInt64)], countingShared: Bool = true) -> [String] {
        guard !entries.isEmpty else { return [] }
        removalHook.withLock { $0 }?()
        let dirfd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { if dirfd >= 0 { close(dirfd) } }
        var names: [String] = []
        names.reserveCapacity(entries.count)
        for (id, key, generation) in entries {
            fileLock(id).withLock { _ in
                let known = state.withLock { $0.index[id] }
                guard let size = known?.size, known?.generation == generation else { return }
                let name = fileName(id, key: key)
                func unlinkFile() -> Bool {
                    (dirfd >= 0 ? unlinkat(dirfd, name, 0) : unlink(directory + "/" + name)) == 0
                }
                if countingShared {
                    counted { unlinkFile() ? -size : 0 }
                } else {
                    _ = unlinkFile()
                }
                forget(id)
                names.append(name)
            }
        }
        return names
    }

    /// Deletes the file of the entry for `id` (unless `unlinking` is false) and drops it from the
    /// index, if the index still holds the generation `seen` (`nil`: none); returns whether it did.
    @discardableResult
    func discard(_ id: EntryID, key: String?, seen: UInt64?, unlinking: Bool = true) -> Bool {
        fileLock(id).withLock { _ -> Bool in
            guard state.withLock({ $0.index[id]?.generation }) == seen else { return false }
            let size = state.withLock { $0.index[id]?.size ?? 0 }
            if unlinking { counted { withPath(id, key: key) { unlink($0) == 0 } ? -size : 0 } }
            forget(id)
            return true
        }
    }

    func fileLock(_ id: EntryID) -> Locked<Int> { fileLocks[Int(truncatingIfNeeded: id.lo & 63)] }

    /// Drops `id` from the index; returns the size it had there (0 when absent).
    @discardableResult
    func forget(_ id: EntryID) -> Int {
        state.withLock { s in
            if !s.keys.isEmpty { s.keys.removeValue(forKey: id) }
            guard let e = s.index.removeValue(forKey: id) else { return 0 }
            s.totalSize -= e.size
            return e.size
        }
    }
}
