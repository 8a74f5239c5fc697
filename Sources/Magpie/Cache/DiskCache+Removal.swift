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

/// Removing entries: one, all, expired, least recently accessed. A removal deletes a row only
/// while it is the one that was chosen (its last access and write stamp unchanged), and a file
/// only while it is the row's (its inode), so a newer write survives.
extension DiskCache {

    /// Removes the entry for `key`, if any.
    public func remove(forKey key: String) throws(DiskCacheError) {
        let id = try checkedID(key)
        let unhashedKey = config.usesHashedFileName ? nil : key
        let failure = fileLock(id).withLock { _ -> Int32 in
            if let index = currentIndex(checkingFile: true) {
                let result = indexed(index) { (i) throws(SQLiteError) in
                    try i.write { (c) throws(SQLiteError) in
                        let row = try c.rowHead(id)
                        try c.deleteRow(id)
                        return row
                    }
                }
                if case .failure(let error) = result, !error.isCorrupt { return error.errnoValue }
            }
            forgetFile(id)
            // The file too, whatever the row said: an earlier version's, or one no row names.
            let gone = withPath(id, key: unhashedKey) { unlink($0) == 0 ? 0 : errno }
            return gone == ENOENT || gone == ENOTDIR ? 0 : gone
        }
        if failure != 0 { throw .writeFailed(path: path(id, key: unhashedKey), errno: failure) }
    }

    /// Removes every entry: the rows, then the cache's own files one by one (entries and
    /// temporary files), relative to a descriptor of the folder opened without following links.
    /// The marker, links, folders and foreign files stay.
    public func removeAll() throws(DiskCacheError) {
        if isReadOnly { throw .readOnly(path: directory) }
        if let index = currentIndex(checkingFile: true) {
            var after = Int.min
            while true {
                let batch = indexed(index) { (i) throws(SQLiteError) in
                    try i.write { (c) throws(SQLiteError) -> [IndexVictim] in
                        let batch = try c.allEntries(after: after, limit: 1000)
                        for victim in batch { try c.deleteRow(victim.id) }
                        return batch
                    }
                }
                guard case .success(let victims) = batch, let last = victims.last else { break }
                removeFiles(of: victims)
                after = last.id.rowID
            }
            compact(index)
        }
        Self.removeOwnFiles(in: directory, config: config)
        forgetAllFiles()
    }

    /// Removes entries expired at `referenceDate`; returns their names (as files are named).
    @discardableResult
    public func removeExpiredValues(referenceDate: Date? = nil) -> [String] {
        let now = (referenceDate ?? clock.now()).timeIntervalSinceReferenceDate
        guard let index = currentIndex(checkingFile: true) else { return [] }
        flushTouches()
        var names: [String] = []
        while true {
            guard
                case .success(let chosen) = indexed(
                    index,
                    { (i) throws(SQLiteError) in
                        try i.read { (c) throws(SQLiteError) in try c.expired(at: now, limit: 1000) }
                    }), !chosen.isEmpty
            else { break }
            // An entry a read of this process extended is not expired.
            let due = chosen.filter { pendingTouch($0.id, stamp: $0.inode).map { $0.expiresAt <= now } ?? true }
            let removed = removeChosen(due, from: index)
            names += removed.map { fileName($0.id, key: $0.key) }
            if removed.isEmpty || chosen.count < 1000 { break }
        }
        if !names.isEmpty { compact(index) }
        return names
    }

    /// When the folder is over a limit (bytes on disk, entries, or the volume's free space),
    /// removes the least recently accessed entries until it holds at most half of each limit (and
    /// the volume has its free space again); returns their names.
    @discardableResult
    public func removeSizeExceededValues() -> [String] { removeSizeExceededValues(reaching: 1) }

    /// As ``removeSizeExceededValues()``, counting a limit as exceeded from `fraction` of it on
    /// (a trim a write scheduled: the write's own eviction left the folder just within it).
    func removeSizeExceededValues(reaching fraction: Double) -> [String] {
        guard !isReadOnly, let index = currentIndex(checkingFile: true) else { return [] }
        flushTouches()
        // The log as a checkpoint leaves it, before it is measured (it counts only its budget then).
        compact(index)
        var names: [String] = []
        var targets: (bytes: Int, entries: Int)?
        var sparingRead = true
        var after: IndexCursor?
        while true {
            guard
                case .success(let (entries, bytes)) = indexed(
                    index,
                    { (i) throws(SQLiteError) in
                        try i.read { (c) throws(SQLiteError) in try usage(c, index) }
                    })
            else { break }
            // The targets are set by the first measure: once over a limit, down to half of it.
            if targets == nil {
                var t = (bytes: Int.max, entries: Int.max)
                if config.sizeLimit > 0 && Double(bytes) > Double(config.sizeLimit) * fraction {
                    t.bytes = config.sizeLimit / 2
                }
                if config.countLimit > 0 && Double(entries) > Double(config.countLimit) * fraction {
                    t.entries = config.countLimit / 2
                }
                if config.freeSpaceLimit > 0, let free = freeSpace(), free < config.freeSpaceLimit {
                    // Only the cache's own bytes can be given back: as many as the volume lacks.
                    t.bytes = min(t.bytes, max(0, bytes - (config.freeSpaceLimit - free)))
                }
                targets = t
            }
            let bytesTarget = min(bytes, targets!.bytes)
            let countTarget = min(entries, targets!.entries)
            guard bytesTarget < bytes || countTarget < entries else { break }
            guard
                case .success(let batch) = indexed(
                    index,
                    { (i) throws(SQLiteError) in
                        try i.read { (c) throws(SQLiteError) in try c.leastRecentlyAccessed(limit: 1000, after: after) }
                    })
            else { break }
            if batch.isEmpty {
                // Every entry left was read by this process since its row's time: those go too.
                guard sparingRead else { break }
                sparingRead = false
                after = nil
                continue
            }
            var left = (bytes: bytes, entries: entries)
            var chosen: [IndexVictim] = []
            for victim in batch {
                if left.bytes <= bytesTarget && left.entries <= countTarget { break }
                after = IndexCursor(victim)
                if sparingRead && pendingTouch(victim.id, stamp: victim.inode) != nil { continue }
                chosen.append(victim)
                left.bytes -= victim.disk
                left.entries -= 1
            }
            let removed = removeChosen(chosen, from: index)
            names += removed.map { fileName($0.id, key: $0.key) }
            // Stop when the targets were reached with this batch.
            if left.bytes <= bytesTarget && left.entries <= countTarget && !chosen.isEmpty { break }
        }
        // The pages the rows left go back to the disk once, at the end (a vacuum and a checkpoint
        // after each batch of 1,000 made a trim of 100,000 entries 7.6 s, against 4.7 s).
        if !names.isEmpty { compact(index) }
        return names
    }

    /// Waits until background trims and deletions queued so far have finished.
    public func waitForBackgroundWork() {
        background.wait()
    }

    /// Deletes the rows of `chosen` that are still as chosen (one transaction), then their files;
    /// returns those that went.
    func removeChosen(_ chosen: [IndexVictim], from index: CacheIndex) -> [IndexVictim] {
        guard !chosen.isEmpty else { return [] }
        removalHook.withLock { $0 }?()
        let result = indexed(index) { (i) throws(SQLiteError) in
            try i.write { (c) throws(SQLiteError) -> [IndexVictim] in
                var removed: [IndexVictim] = []
                // In the order of the id index: each of its pages is changed once a batch, not
                // once for each of its rows after SQLite's small cache let it go.
                for victim in chosen.sorted(by: { $0.id.rowID < $1.id.rowID })
                where try c.deleteRow(victim.id, ifUnchanged: (victim.lastAccess, victim.inode)) {
                    removed.append(victim)
                }
                return removed
            }
        }
        guard case .success(let removed) = result else { return [] }
        removeFiles(of: removed)
        return removed
    }

    /// Gives the database's free pages back and checkpoints its log (cutting it back), so what
    /// a trim removed leaves the disk.
    func compact(_ index: CacheIndex) {
        _ = try? index.withWriter { (c) throws(SQLiteError) in
            try c.vacuumFreePages()
            c.checkpoint(truncating: true)
        }
    }

    /// Drops the row of `id` if it is still `row` (and, unless `unlinking` is false, its file):
    /// a read that found the entry expired, damaged or gone. Returns whether it did.
    @discardableResult
    func discard(_ id: EntryID, key: String?, row: IndexRow?, unlinking: Bool = true) -> Bool {
        fileLock(id).withLock { _ -> Bool in
            var dropped = row == nil
            if let row, let index = currentIndex() {
                let result = indexed(index) { (i) throws(SQLiteError) in
                    try i.write { (c) throws(SQLiteError) in try c.deleteRow(id, ifStamp: row.inode) }
                }
                if case .success(true) = result { dropped = true }
            }
            if dropped && unlinking { unlinkFile(id, key: key, inode: row?.inode ?? 0) }
            return dropped
        }
    }

    func fileLock(_ id: EntryID) -> Locked<Int> { fileLocks[Int(truncatingIfNeeded: id.lo & 63)] }
}
