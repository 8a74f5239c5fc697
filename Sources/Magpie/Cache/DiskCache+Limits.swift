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

/// The limits: bytes on disk, entries, the volume's free space. Each write keeps the first two
/// within its own transaction; a trim in the background then takes the folder down to half.
extension DiskCache {
    /// What the limits measure, as the index counts it for every process: entries, and bytes on
    /// disk: the files' blocks, the database's pages in use (free ones go back at the next trim,
    /// and the next rows reuse them meanwhile), and the log's share, which the limit sets aside
    /// whole (it is cut back to it at each checkpoint).
    func usage(_ c: SQLiteConnection, _ index: CacheIndex) throws(SQLiteError) -> (entries: Int, bytes: Int) {
        let totals = try c.totals()
        var st = stat()
        let log = lstat(index.path + "-wal", &st) == 0 ? Int(st.st_blocks) * 512 : 0
        return (totals.entries, totals.fileDisk + (try c.usedPageBytes()) + max(log, index.logBudget))
    }

    /// Inside a write's transaction: when the folder is over its size or count limit, removes the
    /// least recently accessed rows (never `spared`) until it is within both again. Returns the
    /// entries removed (their files go after the commit), whether a limit was exceeded, and
    /// whether the index holds enough free pages (16) to give them back to the disk now.
    func keepLimits(_ c: SQLiteConnection, _ index: CacheIndex, sparing spared: EntryID) throws(SQLiteError) -> (
        [IndexVictim], Bool, Bool
    ) {
        guard config.sizeLimit > 0 || config.countLimit > 0 else { return ([], false, false) }
        var (entries, bytes) = try usage(c, index)
        let overBytes = config.sizeLimit > 0 && bytes > config.sizeLimit
        let overCount = config.countLimit > 0 && entries > config.countLimit
        guard overBytes || overCount else { return ([], false, false) }
        func over() -> Bool {
            (config.sizeLimit > 0 && bytes > config.sizeLimit) || (config.countLimit > 0 && entries > config.countLimit)
        }
        var removed: [IndexVictim] = []
        // First the entries this process has not read since their rows' times, then (if the folder
        // is still over) any.
        for sparingRead in [true, false] where over() {
            var after: IndexCursor?
            scan: while over() {
                let batch = try c.leastRecentlyAccessed(limit: 64, after: after)
                for victim in batch where victim.id != spared {
                    if !over() { break scan }
                    if sparingRead && pendingTouch(victim.id, stamp: victim.inode) != nil { continue }
                    if try c.deleteRow(victim.id) {
                        removed.append(victim)
                        bytes -= victim.disk
                        entries -= 1
                    }
                }
                guard batch.count == 64, let last = batch.last else { break }
                after = IndexCursor(last)
            }
        }
        return (removed, true, try c.integer("PRAGMA freelist_count") >= 16)
    }

    /// Whether the volume's free space is below ``Config/freeSpaceLimit`` (a `statvfs` at most
    /// once a second).
    func freeSpaceIsLow() -> Bool {
        guard config.freeSpaceLimit > 0 else { return false }
        let now = clock.now().timeIntervalSinceReferenceDate
        let due = trimState.withLock { s -> Bool in
            guard now - s.freeSpaceCheckedAt >= 1 else { return false }
            s.freeSpaceCheckedAt = now
            return true
        }
        guard due, let free = freeSpace() else { return false }
        return free < config.freeSpaceLimit
    }

    /// Bytes free for this user on the folder's volume.
    func freeSpace() -> Int? {
        var vfs = statvfs()
        guard statvfs(directory, &vfs) == 0 else { return nil }
        return Int(vfs.f_bavail) &* Int(vfs.f_frsize)
    }

    /// Runs a trim on the I/O executor, like every other blocking call; at most one is pending,
    /// and `waitForBackgroundWork()` waits for it.
    func scheduleTrim() {
        let first = trimState.withLock { s -> Bool in
            defer { s.scheduled = true }
            return !s.scheduled
        }
        guard first else { return }
        background.enter()
        Task.detached(priority: .utility) { [weak self, background] in
            _ = try? await BlockingExecutor.io.run { [weak self] in
                guard let self else { return }
                self.trimState.withLock { $0.scheduled = false }
                _ = self.removeSizeExceededValues(reaching: 0.9)
            }
            background.leave()
        }
    }

    /// Deletes the files of entries whose rows went (each under its entry's lock, only while the
    /// file is still the one the row named: a newer write's file stays).
    func removeFiles(of victims: [IndexVictim]) {
        for victim in victims where victim.isFile {
            fileLock(victim.id).withLock { _ in unlinkFile(victim.id, key: victim.key, inode: victim.inode) }
        }
    }

    /// Unlinks the entry file of `id` if it is still the file of inode `inode`. The caller holds
    /// the entry's lock.
    func unlinkFile(_ id: EntryID, key: String?, inode: UInt64) {
        withPath(id, key: key) { path in
            var st = stat()
            guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, inode == 0 || UInt64(st.st_ino) == inode
            else { return }
            unlink(path)
        }
        forgetFile(id)
    }

    /// Records that the file of `id` with `stamp` passed its CRC check in this process.
    func rememberVerified(_ id: EntryID, _ stamp: FileStamp) {
        verifiedFiles.withLock { seen in
            if seen.count >= 65_536 { seen.removeAll(keepingCapacity: true) }
            seen[id] = stamp.digest
        }
    }
}
